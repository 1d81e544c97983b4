import { Repository } from '@lib/db/repository';
import type { JobSpec } from '@lib/jobs/job-queue';
import { enqueueJobs } from '@lib/jobs/job-queue';
import type { AutomaticSuspensionReason } from '../merchant/merchant-lifecycle.service';

/**
 * Where each automatic suspension's clock starts, in SQL over `merchant.merchants m` (one definition for the run, the
 * check under the row lock and the operators' list): KYC at its expiry; inactivity at the latest of the first
 * activation (`psp_visible_at`), the last reactivation and the last successful transaction known (greatest() skips
 * nulls), plus the months given as the statement's parameter.
 */
const DUE_AT: Record<AutomaticSuspensionReason, string> = {
  kyc_expired: 'm.kyc_expires_at',
  inactivity: 'greatest(m.psp_visible_at, m.reactivated_at, m.last_success_at) + make_interval(months => ?::int)',
};
/** The merchants each automatic suspension applies to: active live ones; for inactivity, those their bank sees. */
const APPLIES: Record<AutomaticSuspensionReason, string> = {
  kyc_expired: `m.status = 'active' and not m.sandbox and m.kyc_expires_at is not null`,
  inactivity: `m.status = 'active' and not m.sandbox and m.psp_visible_at is not null`,
};
/** The business day (Asia/Makassar) of a due time: a warning is once per merchant, reason and due day. */
const DUE_ON = (at: string) => `((${at}) at time zone 'Asia/Makassar')::date`;

export interface DueRow {
  merchant_id: string;
  due_at: Date;
}

export interface SuspensionDueRow {
  merchant_id: string;
  merchant_code: string;
  merchant_name: string;
  bank_code: string | null;
  reason: AutomaticSuspensionReason;
  due_at: Date;
  suspends_at: Date;
  warned_at: Date | null;
  kyc_expires_at: Date | null;
  last_success_at: Date | null;
  activity_checked_at: Date | null;
}

export interface OwnerRow {
  user_id: string;
  app_language: string | null;
}

/** The automatic suspension's reads and its records (`merchant.suspension_warnings`, the activity copy on merchants). */
export class SuspensionRepository extends Repository {
  /** Merchants `reason` applies to whose due time is at or before `until` (among `ids` when given), the earliest first. */
  due(reason: AutomaticSuspensionReason, months: number, until: Date, ids?: readonly string[]): Promise<DueRow[]> {
    const monthParams = reason === 'inactivity' ? [months, months] : [];
    return this.rows<DueRow>(
      `select m.id as merchant_id, ${DUE_AT[reason]} as due_at from merchant.merchants m
        where ${APPLIES[reason]} and ${DUE_AT[reason]} <= ?::timestamptz ${ids ? 'and m.id = any(?::uuid[])' : ''}
        order by 2, 1`,
      [...monthParams, until, ...(ids ? [[...ids]] : [])],
    );
  }

  /**
   * Under the merchant's row lock: `reason` still applies, its due time has passed, and its warning (for that due day)
   * is at least `warningDays` old.
   */
  async stillDue(merchantId: string, reason: AutomaticSuspensionReason, months: number, warningDays: number, now: Date): Promise<boolean> {
    const monthParams = reason === 'inactivity' ? [months, months] : [];
    const rows = await this.rows(
      `select 1 from merchant.merchants m
         join merchant.suspension_warnings w on w.merchant_id = m.id and w.reason = ? and w.due_on = ${DUE_ON(DUE_AT[reason])}
        where m.id = ?::uuid and ${APPLIES[reason]} and ${DUE_AT[reason]} <= ?::timestamptz
          and w.warned_at + make_interval(days => ?::int) <= ?::timestamptz`,
      [reason, ...monthParams.slice(0, 1), merchantId, ...monthParams.slice(1), now, warningDays, now],
    );
    return rows.length > 0;
  }

  /**
   * Records the warning of (merchant, reason, due day) unless there is one: answers whether this call recorded it, and
   * when the warning was (first) given.
   */
  async claimWarning(
    merchantId: string,
    reason: AutomaticSuspensionReason,
    dueAt: Date,
    now: Date,
  ): Promise<{ claimed: boolean; warnedAt: Date }> {
    const inserted = await this.rows<{ warned_at: Date }>(
      `insert into merchant.suspension_warnings (merchant_id, reason, due_on, due_at, warned_at, pushes)
       values (?::uuid, ?, ${DUE_ON('?::timestamptz')}, ?::timestamptz, ?::timestamptz, 0)
       on conflict (merchant_id, reason, due_on) do nothing
       returning warned_at`,
      [merchantId, reason, dueAt, dueAt, now],
    );
    if (inserted.length > 0) return { claimed: true, warnedAt: new Date(inserted[0].warned_at) };
    const [existing] = await this.rows<{ warned_at: Date }>(
      `select warned_at from merchant.suspension_warnings where merchant_id = ?::uuid and reason = ? and due_on = ${DUE_ON('?::timestamptz')}`,
      [merchantId, reason, dueAt],
    );
    return { claimed: false, warnedAt: new Date(existing.warned_at) };
  }

  async recordPushes(merchantId: string, reason: AutomaticSuspensionReason, dueAt: Date, pushes: number): Promise<void> {
    await this.rows(
      `update merchant.suspension_warnings set pushes = ? where merchant_id = ?::uuid and reason = ? and due_on = ${DUE_ON('?::timestamptz')}`,
      [pushes, merchantId, reason, dueAt],
    );
  }

  /** The merchant's live owners and their language (no settings saved: null). */
  owners(merchantId: string): Promise<OwnerRow[]> {
    return this.rows<OwnerRow>(
      `select mu.user_id, s.app_language from merchant.merchant_users mu
         left join merchant.account_settings s on s.user_id = mu.user_id
        where mu.merchant_id = ?::uuid and mu.role = 'owner' and mu.revoked_at is null
        order by mu.created_at, mu.id`,
      [merchantId],
    );
  }

  async nameOf(merchantId: string): Promise<string> {
    const [row] = await this.rows<{ name: string }>(`select name from merchant.merchants where id = ?::uuid`, [merchantId]);
    return row?.name ?? '';
  }

  /**
   * The transaction subgraph's answers (a copy): each merchant's last successful transaction, never moved back, and
   * when it was asked. Plain SQL, so `updated_at` and the bank-view copy do not change.
   */
  async recordActivity(items: readonly { merchant_id: string; last_success_at: string | null }[], now: Date): Promise<void> {
    if (items.length === 0) return;
    await this.rows(
      `update merchant.merchants m
          set last_success_at = greatest(m.last_success_at, a.last_success_at), activity_checked_at = ?::timestamptz
         from json_to_recordset(?::json) as a(merchant_id uuid, last_success_at timestamptz)
        where m.id = a.merchant_id`,
      [now, JSON.stringify(items)],
    );
  }

  /**
   * Operators' list: every live active merchant with an automatic suspension due by `until`, the earliest first, with
   * its warning (if given) and the earliest time the daily run may suspend it (the due time, but never before the
   * warning is `warningDays` old; a warning not given yet counts from `now`).
   */
  list(input: { months: number; warningDays: number; now: Date; until: Date; limit: number }): Promise<SuspensionDueRow[]> {
    const { months, warningDays, now, until, limit } = input;
    return this.rows<SuspensionDueRow>(
      `with due as (
         select m.id, 'kyc_expired' as reason, ${DUE_AT.kyc_expired} as due_at
           from merchant.merchants m where ${APPLIES.kyc_expired} and ${DUE_AT.kyc_expired} <= ?::timestamptz
         union all
         select m.id, 'inactivity', ${DUE_AT.inactivity}
           from merchant.merchants m where ${APPLIES.inactivity} and ${DUE_AT.inactivity} <= ?::timestamptz
       )
       select m.id as merchant_id, m.merchant_code, m.name as merchant_name, b.code as bank_code, d.reason, d.due_at,
              greatest(d.due_at, coalesce(w.warned_at, ?::timestamptz) + make_interval(days => ?::int)) as suspends_at,
              w.warned_at, m.kyc_expires_at, m.last_success_at, m.activity_checked_at
         from due d
         join merchant.merchants m on m.id = d.id
         left join merchant.banks b on b.id = m.bank_id
         left join merchant.suspension_warnings w on w.merchant_id = d.id and w.reason = d.reason and w.due_on = ${DUE_ON('d.due_at')}
        order by d.due_at, m.id
        limit ?`,
      [until, months, months, until, now, warningDays, limit],
    );
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }
}
