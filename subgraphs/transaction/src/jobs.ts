import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaskList } from 'graphile-worker';
import { Counter } from 'prom-client';
import type { JobContext } from '@lib/federation/subgraph-definition';
import {
  DAILY_SUMMARY_FIGURES_TASK,
  type DailySummaryPayload,
  RECONCILIATION_POS_ORDERS_TASK,
  type ReconciliationPosOrdersPayload,
  SUSPENSION_ACTIVITY_TASK,
  type SuspensionActivityPayload,
} from '@lib/domain/jobs/tasks';
import { transactionRequestScope } from './context';
import {
  STATEMENT_GENERATE_TASK,
  STATEMENT_PLAN_TASK,
  type StatementGeneratePayload,
  type StatementPlanPayload,
  StatementService,
} from './modules/statement/statement.service';
import { type OutletDay, RECONCILIATION_OUTLETS_TASK } from './modules/reconciliation/reconciliation.repository';
import {
  RECONCILIATION_PLAN_TASK,
  type ReconciliationPlanPayload,
  ReconciliationService,
} from './modules/reconciliation/reconciliation.service';
import { TransactionActivityService } from './modules/transaction/transaction-activity.service';
import { TransactionDailySummaryService } from './modules/transaction/transaction-daily-summary.service';
import {
  PAYMENT_TARGET_MERCHANTS_TASK,
  PAYMENT_TARGET_OUTLETS_TASK,
  type PaymentTargetMerchantsPayload,
  type PaymentTargetOutletsPayload,
} from './modules/payment-target/payment-target.service';

/**
 * The transaction process's jobs (docs/decisions/0031-webhooks-and-job-queue.md): its copy of what payment events resolve to,
 * kept from the owners' changes (docs/decisions/0028-payment-event-and-settlement-intake.md):
 * - `payment_target_merchants`: enqueued by the merchant subgraph with each change of what a bank sees of merchants;
 * - `payment_target_outlets`: enqueued by the outlet subgraph with each change of a merchant's NMIDs and terminals;
 * - `daily_summary.figures`: a merchant's daily summary recipients, from the merchant process, answered with their
 *   figures of the day (docs/decisions/0046-notifications.md);
 * - `suspension.activity`: merchants near the end of their inactivity window, from the merchant process's daily run,
 *   answered with each one's last successful transaction (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md);
 * - `statement.plan`: the monthly run of the past month's statements, one job per month, each queuing the next (made
 *   sure of at start); `statement.generate`: one statement's files rendered and stored, the merchant process's
 *   `statement.ready` email queued with them (docs/decisions/0242-daily-reconciliation.md).
 * - the daily reconciliation (docs/decisions/0242-daily-reconciliation.md): `reconciliation.pos_orders`, the point of
 *   sale's QRIS orders from the catalog subgraph; `reconciliation.outlets`, outlet-days whose settlements (or orders)
 *   arrived, a batch job; `reconciliation.plan`, the business day before, every outlet, once a day (made sure of at start).
 */
export function transactionJobs({ config, orm, log, metrics }: Pick<JobContext, 'config' | 'orm' | 'log' | 'metrics'>): {
  tasks: TaskList;
  concurrency: number;
  start(): Promise<void>;
} {
  const applied = new Counter({
    name: 'payment_targets_applied_total',
    help: 'Merchants whose part of the payment-target copy changed (older versions than the copy are skipped), by part',
    labelNames: ['part'],
    registers: [metrics],
  });
  const targets = () => transactionRequestScope(orm.em.fork() as EntityManager).services.paymentTarget;
  const statements = () => {
    const em = orm.em.fork() as EntityManager;
    return new StatementService(em, new ReconciliationService(em));
  };
  const reconciliation = () => new ReconciliationService(orm.em.fork() as EntityManager, config);
  return {
    // Small upserts that arrive in bursts (a bulk change, a rebuild): two at once keep up, with few connections.
    concurrency: 2,
    tasks: {
      [PAYMENT_TARGET_MERCHANTS_TASK]: async (payload) => {
        applied.inc({ part: 'merchant' }, await targets().applyMerchants(payload as PaymentTargetMerchantsPayload));
      },
      [PAYMENT_TARGET_OUTLETS_TASK]: async (payload) => {
        applied.inc({ part: 'outlets' }, await targets().applyOutletSets(payload as PaymentTargetOutletsPayload));
      },
      [DAILY_SUMMARY_FIGURES_TASK]: async (payload) => {
        await new TransactionDailySummaryService(orm.em.fork() as EntityManager).figures(payload as DailySummaryPayload);
      },
      [SUSPENSION_ACTIVITY_TASK]: async (payload) => {
        await new TransactionActivityService(orm.em.fork() as EntityManager).lastSuccess(payload as SuspensionActivityPayload);
      },
      [STATEMENT_PLAN_TASK]: async (payload) => {
        log.info({ ...(await statements().plan(payload as StatementPlanPayload, config.statements.runAt)) }, 'monthly statements planned');
      },
      [STATEMENT_GENERATE_TASK]: async (payload) => {
        const row = await statements().generate(payload as StatementGeneratePayload);
        log.info({ ...(payload as StatementGeneratePayload), statement_id: row?.id ?? null }, 'statement generated');
      },
      [RECONCILIATION_POS_ORDERS_TASK]: async (payload) => {
        const applied = await reconciliation().applyPosOrders(payload as ReconciliationPosOrdersPayload);
        log.info(applied, 'point-of-sale QRIS orders copied for reconciliation');
      },
      [RECONCILIATION_OUTLETS_TASK]: async (payload) => {
        const counts = await reconciliation().runOutletDays(Array.isArray(payload) ? (payload as OutletDay[]) : []);
        log.info(counts, 'outlet-days reconciled');
      },
      [RECONCILIATION_PLAN_TASK]: async (payload) => {
        const outcome = await reconciliation().plan(payload as ReconciliationPlanPayload);
        log.info(outcome, 'daily reconciliation run');
      },
    },
    start: async () => {
      await statements().ensureScheduled(config.statements.runAt);
      await reconciliation().ensureScheduled();
    },
  };
}
