import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaskList } from 'graphile-worker';
import { Counter } from 'prom-client';
import type { JobContext } from '@lib/federation/subgraph-definition';
import { DAILY_SUMMARY_OUTLETS_TASK, type DailySummaryPayload } from '@lib/domain/jobs/tasks';
import { outletRequestScope } from './context';
import { nameBestOutlets } from './modules/outlet/outlet-daily-summary';
import { SETTLEMENT_ACCOUNT_EFFECTIVE_TASK } from './modules/settlement-account/settlement-account.service';
import { MERCHANT_PROFILES_TASK, type MerchantProfilesPayload } from './modules/merchant-profile/merchant-profile.service';

/**
 * The outlet process's jobs (docs/decisions/0031-webhooks-and-job-queue.md):
 * - `merchant_profiles`: what banks see of merchants, enqueued by the merchant subgraph with each change, kept in
 *   the read model `outlet.merchant_profiles` (docs/decisions/0211-bank-view-read-model.md);
 * - `daily_summary.outlets`: the best outlets' names of a merchant's daily summaries, on their way from the transaction
 *   process back to the merchant process (docs/decisions/0046-notifications.md);
 * - `settlement_account.effective`: a settlement account's cooling-off ended: the REST caches of bank lookups are told
 *   (docs/decisions/0238-settlement-accounts.md).
 */
export function outletJobs({ orm, metrics, config }: Pick<JobContext, 'orm' | 'metrics' | 'config'>): { tasks: TaskList } {
  const applied = new Counter({
    name: 'merchant_profiles_applied_total',
    help: 'Merchant profiles written to the bank-view read model (older versions than the copy are skipped)',
    registers: [metrics],
  });
  return {
    tasks: {
      [MERCHANT_PROFILES_TASK]: async (payload) => {
        const em = orm.em.fork() as EntityManager;
        applied.inc(await outletRequestScope(em, config).services.merchantProfile.apply(payload as MerchantProfilesPayload));
      },
      [SETTLEMENT_ACCOUNT_EFFECTIVE_TASK]: async (payload) => {
        const em = orm.em.fork() as EntityManager;
        await outletRequestScope(em, config).services.settlementAccount.becameEffective((payload as { account_id: string }).account_id);
      },
      [DAILY_SUMMARY_OUTLETS_TASK]: async (payload) => {
        await nameBestOutlets(orm.em.fork() as EntityManager, payload as DailySummaryPayload);
      },
    },
  };
}
