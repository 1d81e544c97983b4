import type { EntityManager } from '@mikro-orm/postgresql';
import { DAILY_SUMMARY_SEND_TASK, type DailySummaryPayload } from '@lib/domain/jobs/tasks';
import { Repository } from '@lib/db/repository';
import { type JobSpec, enqueueJobs } from '@lib/jobs/job-queue';
import { UUID_PATTERN } from '@lib/federation/loaders';

class OutletNamesRepository extends Repository {
  async namesOf(merchantId: string, outletIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.rows<{ id: string; name: string }>(
      `select id, name from outlet.outlets where merchant_id = ?::uuid and id = any(?::uuid[])`,
      [merchantId, [...outletIds]],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }
}

/**
 * The outlet process's hop of the daily summary (docs/decisions/0046-notifications.md): the name
 * of each recipient's best outlet, then back to the merchant process. Past the payload's deadline, nothing.
 */
export async function nameBestOutlets(em: EntityManager, payload: DailySummaryPayload, now = new Date()): Promise<boolean> {
  if (now.getTime() > new Date(payload.deadline_at).getTime() || !UUID_PATTERN.test(payload.merchant_id)) return false;
  const repo = new OutletNamesRepository(em);
  const ids = [...new Set(payload.recipients.flatMap((r) => (r.best_outlet ? [r.best_outlet.outlet_id] : [])))].filter((id) =>
    UUID_PATTERN.test(id),
  );
  const names = ids.length ? await repo.namesOf(payload.merchant_id, ids) : new Map<string, string>();
  const recipients = payload.recipients.map((r) =>
    r.best_outlet ? { ...r, best_outlet: { ...r.best_outlet, name: names.get(r.best_outlet.outlet_id) ?? null } } : r,
  );
  await repo.sqlTransaction((tx) =>
    tx.enqueue([
      {
        task: DAILY_SUMMARY_SEND_TASK,
        payload: { ...payload, recipients } satisfies DailySummaryPayload,
        jobKey: `${DAILY_SUMMARY_SEND_TASK}:${payload.merchant_id}:${payload.business_day}`,
      },
    ]),
  );
  return true;
}
