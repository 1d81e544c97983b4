import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaskList } from 'graphile-worker';
import { Counter } from 'prom-client';
import type { JobContext } from '@lib/federation/subgraph-definition';
import { secretBoxFor } from './context';
import { AccountSettingsService } from './modules/account-settings/account-settings.service';
import { NotificationService, PUSH_TASK, type PushJobPayload, pushSchedule } from './modules/notification/notification.service';
import {
  PAYMENT_RECEIVED_TASK,
  type PaymentReceivedPayload,
  TransactionAlertService,
} from './modules/transaction-alert/transaction-alert.service';
import { type AttemptPayload, WEBHOOK_ATTEMPT_TASK, WebhookAttempts, webhookSchedule } from './modules/webhook/webhook-delivery';
import { OutboundUrlPolicy } from './modules/webhook/outbound-url';
import { WebhookSender } from './modules/webhook/webhook-sender';

/**
 * The merchant process's jobs (docs/decisions/0031-webhooks-and-job-queue.md), each on its own unit of work:
 * - `webhook.attempt`: one attempt of a lifecycle webhook (enqueued with the change, then by the previous attempt);
 * - `notification.push`: one push to one device (login alerts, payment pushes), retried on its own schedule;
 * - `payment_received`: a payment of the live feed, enqueued by the transaction subgraph in the intake transaction,
 *   turned here into the pushes of the members who may see the outlet (this process owns users, devices, settings).
 */
export function merchantJobs({ config, orm, log, metrics }: JobContext): { tasks: TaskList; close(): Promise<void> } {
  const box = secretBoxFor(config);
  const sender = new WebhookSender(new OutboundUrlPolicy(config.outboundUrls));
  const webhookLog = log.child({ component: 'webhooks' });
  const attempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Lifecycle webhook attempts by kind (automatic, manual, test) and outcome (delivered, http_error, network_error)',
    labelNames: ['kind', 'outcome'],
    registers: [metrics],
  });
  const failed = new Counter({
    name: 'webhook_deliveries_failed_total',
    help: 'Lifecycle webhooks that failed their last automatic attempt (operators contact the bank)',
    labelNames: ['bank_code'],
    registers: [metrics],
  });
  const fork = () => orm.em.fork() as EntityManager;
  const tasks: TaskList = {
    [WEBHOOK_ATTEMPT_TASK]: async (payload) => {
      await new WebhookAttempts(fork(), box, sender, webhookSchedule(config.webhooks.retryScale), webhookLog, {
        onAttempt: (kind, outcome) =>
          attempts.inc({ kind, outcome: outcome.ok ? 'delivered' : outcome.statusCode === null ? 'network_error' : 'http_error' }),
        onFinalFailure: (bankCode) => failed.inc({ bank_code: bankCode }),
      }).run(payload as AttemptPayload);
    },
    [PUSH_TASK]: async (payload) => {
      await new NotificationService(fork(), config).runPushJob(
        payload as PushJobPayload,
        box,
        pushSchedule(config.notifications.retryScale),
      );
    },
    [PAYMENT_RECEIVED_TASK]: async (payload) => {
      const em = fork();
      const notifications = new NotificationService(em, config);
      const queued = await new TransactionAlertService(em, notifications, new AccountSettingsService(em)).queuePaymentReceived(
        payload as PaymentReceivedPayload,
        box,
      );
      log.info({ event_id: (payload as PaymentReceivedPayload).event_id, ...queued }, 'payment received push');
    },
  };
  return { tasks, close: () => sender.close() };
}
