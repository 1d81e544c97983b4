import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaskList } from 'graphile-worker';
import { Counter } from 'prom-client';
import type { JobContext } from '@lib/federation/subgraph-definition';
import { secretBoxFor } from '@lib/crypto/secret-box';
import {
  DAILY_SUMMARY_SEND_TASK,
  type DailySummaryPayload,
  SUSPENSION_INACTIVITY_TASK,
  type SuspensionActivityPayload,
} from '@lib/domain/jobs/tasks';
import { AccountSettingsService } from './modules/account-settings/account-settings.service';
import { DAILY_SUMMARY_PLAN_TASK, DailySummaryService, type PlanPayload } from './modules/daily-summary/daily-summary.service';
import { MerchantLifecycleService } from './modules/merchant/merchant-lifecycle.service';
import { SUSPENSION_PLAN_TASK, SuspensionService, type SuspensionPlanPayload } from './modules/suspension/suspension.service';
import { NotificationService, PUSH_TASK, type PushJobPayload, pushSchedule } from './modules/notification/notification.service';
import {
  PAYMENT_RECEIVED_TASK,
  type PaymentReceivedPayload,
  TILL_CASH_DIFFERENCE_TASK,
  type TillCashDifferencePayload,
  TransactionAlertService,
} from './modules/transaction-alert/transaction-alert.service';
import {
  SETTLEMENT_ACCOUNT_CHANGED_TASK,
  SettlementAlertService,
  type SettlementAccountChangedPayload,
} from './modules/settlement-alert/settlement-alert.service';
import { STATEMENT_READY_TASK, StatementAlertService, type StatementReadyPayload } from './modules/statement-alert/statement-alert.service';
import { type AttemptPayload, WEBHOOK_ATTEMPT_TASK, WebhookAttempts, webhookSchedule } from './modules/webhook/webhook-delivery';
import { OutboundUrlPolicy } from './modules/webhook/outbound-url';
import { WebhookSender } from './modules/webhook/webhook-sender';

/**
 * The merchant process's jobs (docs/decisions/0031-webhooks-and-job-queue.md), each on its own unit of work:
 * - `webhook.attempt`: one attempt of a lifecycle webhook (enqueued with the change, then by the previous attempt);
 * - `notification.push`: one push to one device (login alerts, payment pushes), retried on its own schedule;
 * - `payment_received`: a payment of the live feed, enqueued by the transaction subgraph in the intake transaction,
 *   turned here into the pushes of the members who may see the outlet (this process owns users, devices, settings);
 * - `daily_summary.plan`: a business day's daily summaries, one job per day, each queuing the next (made sure of at
 *   start); `daily_summary.send`: a merchant's figures back from the transaction process, pushed once per user and day
 *   (docs/decisions/0046-notifications.md);
 * - `suspension.plan`: the day's automatic suspensions and their warnings, one job per day, each queuing the next (made
 *   sure of at start); `suspension.inactivity`: merchants' last successful transactions back from the transaction
 *   process, judged for inactivity (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md).
 * - `settlement_account.changed`: a settlement account requested or cancelled in the outlet subgraph, told to every
 *   owner by push, email and messaging (docs/decisions/0238-settlement-accounts.md).
 * - `statement.ready`: a monthly statement generated in the transaction subgraph, emailed to every owner whose address
 *   is verified (docs/decisions/0242-daily-reconciliation.md).
 * - `till_close.cash_difference`: a till close of the catalog subgraph whose counted cash differs from the expected,
 *   pushed to every owner (docs/decisions/0057-sales-orders-and-receipt-numbers.md).
 */
export function merchantJobs({ config, orm, log, metrics }: JobContext): {
  tasks: TaskList;
  start(): Promise<void>;
  close(): Promise<void>;
} {
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
  const dailySummary = () => {
    const em = fork();
    return new DailySummaryService(em, config, new NotificationService(em, config), new AccountSettingsService(em));
  };
  const suspension = () => {
    const em = fork();
    return new SuspensionService(
      em,
      config,
      new MerchantLifecycleService(em, undefined, config.suspension.kycValidityMonths),
      new NotificationService(em, config),
    );
  };
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
    [SETTLEMENT_ACCOUNT_CHANGED_TASK]: async (payload) => {
      const em = fork();
      const change = payload as SettlementAccountChangedPayload;
      const outcome = await new SettlementAlertService(em, new NotificationService(em, config)).notify(change, box);
      log.info(
        { account_id: change.account_id, merchant_id: change.merchant_id, action: change.action, ...outcome },
        'settlement account change told',
      );
    },
    [STATEMENT_READY_TASK]: async (payload) => {
      const em = fork();
      const ready = payload as StatementReadyPayload;
      const emails = await new StatementAlertService(em, new NotificationService(em, config)).notify(ready);
      log.info({ statement_id: ready.statement_id, merchant_id: ready.merchant_id, month: ready.month, emails }, 'statement ready told');
    },
    [TILL_CASH_DIFFERENCE_TASK]: async (payload) => {
      const em = fork();
      const close = payload as TillCashDifferencePayload;
      const outcome = await new TransactionAlertService(
        em,
        new NotificationService(em, config),
        new AccountSettingsService(em),
      ).queueTillCashDifference(close, box);
      log.info({ close_id: close.close_id, merchant_id: close.merchant_id, ...outcome }, 'till cash difference pushed');
    },
    [DAILY_SUMMARY_PLAN_TASK]: async (payload) => {
      const outcome = await dailySummary().plan(payload as PlanPayload);
      if (outcome.status === 'too_late')
        log.warn({ business_day: outcome.businessDay, next: outcome.next }, 'daily summary not sent: past its catch-up window');
      else log.info({ ...outcome }, 'daily summary planned');
    },
    [DAILY_SUMMARY_SEND_TASK]: async (payload) => {
      const { merchant_id, business_day } = payload as DailySummaryPayload;
      const outcome = await dailySummary().send(payload as DailySummaryPayload, box);
      log.info({ merchant_id, business_day, ...outcome }, 'daily summary send');
    },
    [SUSPENSION_PLAN_TASK]: async (payload) => {
      const outcome = await suspension().plan(payload as SuspensionPlanPayload, box);
      log.info({ ...outcome }, 'automatic suspension run');
    },
    [SUSPENSION_INACTIVITY_TASK]: async (payload) => {
      const outcome = await suspension().inactivity(payload as SuspensionActivityPayload, box);
      log.info({ run_at: (payload as SuspensionActivityPayload).run_at, ...outcome }, 'automatic suspension for inactivity');
    },
  };
  return {
    tasks,
    start: async () => {
      await dailySummary().ensureScheduled();
      await suspension().ensureScheduled();
    },
    close: () => sender.close(),
  };
}
