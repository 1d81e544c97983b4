import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaskList } from 'graphile-worker';
import { Counter } from 'prom-client';
import type { JobContext } from '@lib/federation/subgraph-definition';
import { outletRequestScope } from './context';
import { MERCHANT_PROFILES_TASK, type MerchantProfilesPayload } from './modules/merchant-profile/merchant-profile.service';

/**
 * The outlet process's jobs (docs/decisions/0031-webhooks-and-job-queue.md):
 * - `merchant_profiles`: what banks see of merchants, enqueued by the merchant subgraph with each change, kept in
 *   the read model `outlet.merchant_profiles` (docs/decisions/0211-bank-view-read-model.md).
 */
export function outletJobs({ orm, metrics }: Pick<JobContext, 'orm' | 'metrics'>): { tasks: TaskList } {
  const applied = new Counter({
    name: 'merchant_profiles_applied_total',
    help: 'Merchant profiles written to the bank-view read model (older versions than the copy are skipped)',
    registers: [metrics],
  });
  return {
    tasks: {
      [MERCHANT_PROFILES_TASK]: async (payload) => {
        const em = orm.em.fork() as EntityManager;
        applied.inc(await outletRequestScope(em).services.merchantProfile.apply(payload as MerchantProfilesPayload));
      },
    },
  };
}
