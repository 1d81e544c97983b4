import { Repository } from '@lib/db/repository';
import { JOB_SCHEMA, enqueueJobs } from '@lib/jobs/job-queue';
import { attemptJob } from '../webhook/webhook-delivery';

/**
 * What the merchant subgraph keeps of a sandbox bank's sandbox (docs/decisions/0015-demo-data-and-sandbox.md): its clock
 * (`merchant.sandbox_clocks`), its webhook deliveries and its sandbox merchants. Every statement names the bank by id
 * and is run only after `isSandboxBank` answered true for it.
 */
export class SandboxRepository extends Repository {
  async isSandboxBank(bankId: string): Promise<boolean> {
    const [row] = await this.rows<{ sandbox: boolean }>(`select sandbox from merchant.banks where id = ?`, [bankId]);
    return row?.sandbox === true;
  }

  async offsetSecs(bankId: string): Promise<number> {
    const [row] = await this.rows<{ offset_secs: string }>(`select offset_secs from merchant.sandbox_clocks where bank_id = ?`, [bankId]);
    return row ? Number(row.offset_secs) : 0;
  }

  /** Adds `secs` to the bank's clock; its new offset. */
  async advance(bankId: string, secs: number): Promise<number> {
    const [row] = await this.rows<{ offset_secs: string }>(
      `insert into merchant.sandbox_clocks (bank_id, offset_secs, updated_at) values (?, ?, now())
       on conflict (bank_id) do update set offset_secs = merchant.sandbox_clocks.offset_secs + excluded.offset_secs, updated_at = now()
       returning offset_secs`,
      [bankId, secs],
    );
    return Number(row.offset_secs);
  }

  /**
   * The bank's pending deliveries whose next attempt is ahead move `secs` closer (never before now), and the job of
   * that attempt with them (same key: graphile-worker replaces the pending job's run_at). The attempt handler's own
   * checks make a job that already ran harmless. The number moved.
   */
  async moveWebhookAttempts(bankId: string, secs: number): Promise<number> {
    const moved = await this.rows<{ id: string; attempts: number; next_attempt_at: Date }>(
      `update merchant.webhook_deliveries
          set next_attempt_at = greatest(now(), next_attempt_at - make_interval(secs => ?)), updated_at = now()
        where bank_id = ? and status = 'pending' and next_attempt_at > now()
        returning id, attempts, next_attempt_at`,
      [secs, bankId],
    );
    await enqueueJobs(
      this.db,
      moved.map((d) => attemptJob(d.id, 'automatic', d.attempts + 1, new Date(d.next_attempt_at))),
    );
    return moved.length;
  }

  /**
   * Deletes the bank's webhook deliveries (their attempts and pending jobs first) and its clock, and restores its
   * sandbox merchants to the issued state (active; no suspension, warning or activity check). Counts of what it did.
   */
  async reset(bankId: string): Promise<{ merchantIds: string[]; webhookDeliveries: number; merchantsRestored: number }> {
    const deliveries = await this.rows<{ id: string; attempts: number }>(
      `select id, attempts from merchant.webhook_deliveries where bank_id = ?`,
      [bankId],
    );
    const ids = deliveries.map((d) => d.id);
    if (ids.length > 0) {
      const keys = deliveries.flatMap((d) => [`webhook:${d.id}:${d.attempts + 1}`, `webhook:${d.id}:manual`]);
      await this.rows(`select ${JOB_SCHEMA}.remove_job(k) from unnest(?::text[]) k`, [keys]);
      await this.rows(`delete from merchant.webhook_attempts where delivery_id = any(?::uuid[])`, [ids]);
      await this.rows(`delete from merchant.webhook_deliveries where id = any(?::uuid[])`, [ids]);
    }
    const merchants = await this.rows<{ id: string }>(`select id from merchant.merchants where bank_id = ? and sandbox`, [bankId]);
    const merchantIds = merchants.map((m) => m.id);
    await this.rows(`delete from merchant.suspension_warnings where merchant_id = any(?::uuid[])`, [merchantIds]);
    const restored = await this.rows(
      `update merchant.merchants
          set status = 'active', status_reason = null, reactivated_at = null, last_success_at = null, activity_checked_at = null,
              updated_at = now()
        where bank_id = ? and sandbox
          and (status <> 'active' or status_reason is not null or reactivated_at is not null
               or last_success_at is not null or activity_checked_at is not null)
        returning id`,
      [bankId],
    );
    await this.rows(`delete from merchant.sandbox_clocks where bank_id = ?`, [bankId]);
    return { merchantIds, webhookDeliveries: ids.length, merchantsRestored: restored.length };
  }
}
