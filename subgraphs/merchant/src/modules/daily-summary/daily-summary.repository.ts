import { Repository } from '@lib/db/repository';
import type { JobSpec } from '@lib/jobs/job-queue';
import { enqueueJobs, ensureJob } from '@lib/jobs/job-queue';

export interface RecipientRow {
  merchant_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'staff' | 'viewer';
  outlet_ids: string[];
}

/** Who gets a daily summary, and the record of each one queued (`merchant.daily_summary_sends`). */
export class DailySummaryRepository extends Repository {
  /**
   * The live members of active merchants whose settings allow the daily summary (push on, daily summary on; a user
   * without saved settings has both on) and who have a device to push to, without a summary queued for `day` yet;
   * the oldest membership first.
   */
  recipients(day: string): Promise<RecipientRow[]> {
    return this.rows<RecipientRow>(
      `select mu.merchant_id, mu.user_id, mu.role, mu.outlet_ids::text[] as outlet_ids
         from merchant.merchant_users mu
         join merchant.merchants m on m.id = mu.merchant_id and m.status = 'active'
         left join merchant.account_settings s on s.user_id = mu.user_id
        where mu.revoked_at is null
          and coalesce(s.notification_push_enabled, true) and coalesce(s.notification_daily_summary_enabled, true)
          and exists (select 1 from merchant.push_tokens t where t.user_id = mu.user_id and t.invalidated_at is null)
          and not exists (select 1 from merchant.daily_summary_sends d where d.user_id = mu.user_id and d.business_day = ?::date)
        order by mu.created_at, mu.id`,
      [day],
    );
  }

  /**
   * Records the summaries of `userIds` for `day` as queued; answers the users recorded now. A user already recorded
   * (another copy, a re-run of the day) is not answered: the primary key (user_id, business_day) is the exactly-once.
   */
  async claim(userIds: readonly string[], day: string, merchantId: string, now: Date): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.rows<{ user_id: string }>(
      `insert into merchant.daily_summary_sends (user_id, business_day, merchant_id, queued_at)
       select unnest(?::uuid[]), ?::date, ?::uuid, ?::timestamptz
       on conflict (user_id, business_day) do nothing
       returning user_id`,
      [[...userIds], day, merchantId, now],
    );
    return new Set(rows.map((r) => r.user_id));
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }

  /** Makes sure the chain of daily plan jobs exists (every process at start): lib/jobs/job-queue.ts `ensureJob`. */
  async ensureJob(task: string, key: string, payload: object, runAt: Date): Promise<void> {
    await this.sqlTransaction((tx) => ensureJob(tx.db, task, key, payload, runAt));
  }
}
