import type { EntityManager } from '@mikro-orm/postgresql';
import { SUSPENSION_INACTIVITY_TASK, type SuspensionActivityMerchant, type SuspensionActivityPayload } from '@lib/domain/jobs/tasks';
import { Repository } from '@lib/db/repository';
import { type JobSpec, enqueueJobs } from '@lib/jobs/job-queue';
import { UUID_PATTERN } from '@lib/federation/loaders';

class TransactionActivityRepository extends Repository {
  /** Each merchant's latest successful transaction (one index descent each: transactions_merchant_success_time_idx). */
  lastSuccess(merchantIds: readonly string[]): Promise<{ merchant_id: string; last_success_at: Date | null }[]> {
    return this.rows(
      `select m.id as merchant_id,
              (select max(t.transaction_at) from "transaction".transactions t
                where t.merchant_id = m.id and t.status = 'success') as last_success_at
         from unnest(?::uuid[]) as m(id)`,
      [[...merchantIds]],
    );
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }
}

/**
 * The transaction process's hop of the automatic suspension (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md):
 * each named merchant's last successful transaction, sent back to the merchant process (`suspension.inactivity`).
 */
export class TransactionActivityService {
  private readonly repo: TransactionActivityRepository;

  constructor(em: EntityManager) {
    this.repo = new TransactionActivityRepository(em);
  }

  /** Answers how many merchants it answered for. */
  async lastSuccess(payload: SuspensionActivityPayload): Promise<number> {
    const ids = payload.merchants.map((m) => m.merchant_id).filter((id) => UUID_PATTERN.test(id));
    if (ids.length === 0) return 0;
    const rows = await this.repo.lastSuccess(ids);
    const merchants: SuspensionActivityMerchant[] = rows.map((r) => ({
      merchant_id: r.merchant_id,
      last_success_at: r.last_success_at ? new Date(r.last_success_at).toISOString() : null,
    }));
    await this.repo.sqlTransaction((tx) =>
      tx.enqueue([
        {
          task: SUSPENSION_INACTIVITY_TASK,
          payload: { run_at: payload.run_at, merchants } satisfies SuspensionActivityPayload,
        },
      ]),
    );
    return merchants.length;
  }
}
