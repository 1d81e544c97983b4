import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaskList } from 'graphile-worker';
import { Counter } from 'prom-client';
import type { JobContext } from '@lib/federation/subgraph-definition';
import { transactionRequestScope } from './context';
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
 * - `payment_target_outlets`: enqueued by the outlet subgraph with each change of a merchant's NMIDs and terminals.
 */
export function transactionJobs({ orm, metrics }: Pick<JobContext, 'orm' | 'metrics'>): { tasks: TaskList; concurrency: number } {
  const applied = new Counter({
    name: 'payment_targets_applied_total',
    help: 'Merchants whose part of the payment-target copy changed (older versions than the copy are skipped), by part',
    labelNames: ['part'],
    registers: [metrics],
  });
  const targets = () => transactionRequestScope(orm.em.fork() as EntityManager).services.paymentTarget;
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
    },
  };
}
