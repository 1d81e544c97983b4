import { withDates } from '@lib/db/plain-rows';
import { Repository } from '@lib/db/repository';
import type { JobSpec } from '@lib/jobs/job-queue';
import { enqueueJobs } from '@lib/jobs/job-queue';

/** A settlement account row (`outlet.settlement_accounts`), its number still sealed. */
export type SettlementAccountRow = {
  id: string;
  merchantId: string;
  outletId: string | null;
  bankCode: string;
  accountNumberSealed: string;
  accountNumberLast4: string;
  holderName: string;
  status: 'scheduled' | 'cancelled' | 'superseded';
  effectiveAt: Date;
  requestedAt: Date;
  requestedBy: string;
};

/** An outlet's effective account: its own, else the merchant's corporate one. */
export type EffectiveAccountRow = SettlementAccountRow & { forOutletId: string };

export type AuditRow = {
  id: string;
  merchantId: string;
  outletId: string | null;
  accountId: string;
  action: 'requested' | 'cancelled' | 'superseded';
  actor: string;
  oldAccount: string | null;
  newAccount: string | null;
  effectiveAt: Date | null;
  at: Date;
};

const COLUMNS = `s.id, s.merchant_id as "merchantId", s.outlet_id as "outletId", s.bank_code as "bankCode",
  s.account_number_sealed as "accountNumberSealed", s.account_number_last4 as "accountNumberLast4",
  s.holder_name as "holderName", s.status, s.effective_at as "effectiveAt", s.requested_at as "requestedAt",
  s.requested_by as "requestedBy"`;
const DATES = ['effectiveAt', 'requestedAt'];
export const SETTLEMENT_ACCOUNT_DATES = DATES;
/** The scope's rows: the corporate account (outlet null) or one outlet's own. */
const SCOPE = `s.merchant_id = ? and s.outlet_id is not distinct from ?::uuid`;
/** The newest row of a scope that is in effect now (the database's clock decides, in every process alike). */
const IN_EFFECT = `s.status = 'scheduled' and s.effective_at <= now()`;
const NEWEST = `order by s.effective_at desc, s.requested_at desc limit 1`;

/** An outlet's effective account (`o` the outlet's alias): its own row in effect, else the corporate one, as one lateral row. */
const effectiveOfOutlet = (o: string) => `
  select * from (
    (select ${COLUMNS}, 1 as rank from outlet.settlement_accounts s
       where s.merchant_id = ${o}.merchant_id and s.outlet_id = ${o}.id and ${IN_EFFECT} ${NEWEST})
    union all
    (select ${COLUMNS}, 2 from outlet.settlement_accounts s
       where s.merchant_id = ${o}.merchant_id and s.outlet_id is null and ${IN_EFFECT} ${NEWEST})
  ) x order by rank limit 1`;

/** Subqueries for the bank view's one statement (docs/decisions/0211-bank-view-read-model.md). */
export const settlementAccountSubqueries = {
  /** The effective account of each live outlet of the merchant, as a JSON array of EffectiveAccountRow. */
  effectiveOfMerchant: (merchantId: string) =>
    `(select coalesce(jsonb_agg(to_jsonb(a) - 'rank' || jsonb_build_object('forOutletId', so.id)), '[]')
        from outlet.outlets so cross join lateral (${effectiveOfOutlet('so')}) a
       where so.merchant_id = ${merchantId} and so.deleted_at is null)`,
};

/**
 * Settlement accounts and their audit (`outlet.settlement_accounts`, `outlet.settlement_account_audit`;
 * docs/decisions/0238-settlement-accounts.md). Effective and pending accounts are computed from the rows and the
 * database's clock: a change becomes effective when its time comes, without a write.
 */
export class SettlementAccountRepository extends Repository {
  /** Serialises the writes of one scope (corporate, or one outlet) until the transaction ends. */
  async lockScope(merchantId: string, outletId: string | null): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [
      `settlement_account:${merchantId}:${outletId ?? 'corporate'}`,
    ]);
  }

  /** The scope's own account in effect now. */
  async currentOf(merchantId: string, outletId: string | null): Promise<SettlementAccountRow | null> {
    const rows = await this.rows<SettlementAccountRow>(
      `select ${COLUMNS} from outlet.settlement_accounts s where ${SCOPE} and ${IN_EFFECT} ${NEWEST}`,
      [merchantId, outletId],
    );
    return rows[0] ? withDates(rows[0], DATES) : null;
  }

  /** The scope's change held in its cooling-off (at most one: a newer request supersedes it). */
  async pendingOf(merchantId: string, outletId: string | null): Promise<SettlementAccountRow | null> {
    const rows = await this.rows<SettlementAccountRow>(
      `select ${COLUMNS} from outlet.settlement_accounts s where ${SCOPE} and s.status = 'scheduled' and s.effective_at > now() ${NEWEST}`,
      [merchantId, outletId],
    );
    return rows[0] ? withDates(rows[0], DATES) : null;
  }

  /** The database's clock now. */
  async now(): Promise<Date> {
    const [{ now }] = await this.rows<{ now: Date }>(`select now() as now`);
    return new Date(now);
  }

  /** Each live outlet's account in effect now: its own, else its merchant's corporate account (none: absent). */
  async effectiveOf(outletIds: readonly string[]): Promise<EffectiveAccountRow[]> {
    const rows = await this.rows<EffectiveAccountRow>(
      `select o.id as "forOutletId", a.* from outlet.outlets o cross join lateral (${effectiveOfOutlet('o')}) a
        where o.id = any(?::uuid[])`,
      [outletIds],
    );
    return rows.map((r) => {
      const { rank: _rank, ...row } = r as EffectiveAccountRow & { rank?: number };
      return withDates(row, DATES);
    });
  }

  async insert(row: SettlementAccountRow): Promise<void> {
    await this.db('outlet.settlement_accounts').insert({
      id: row.id,
      merchant_id: row.merchantId,
      outlet_id: row.outletId,
      bank_code: row.bankCode,
      account_number_sealed: row.accountNumberSealed,
      account_number_last4: row.accountNumberLast4,
      holder_name: row.holderName,
      status: row.status,
      effective_at: row.effectiveAt,
      requested_at: row.requestedAt,
      requested_by: row.requestedBy,
    });
  }

  /** Ends a pending row (cancelled or superseded); false when it was no longer pending. */
  async end(id: string, status: 'cancelled' | 'superseded', by: string): Promise<boolean> {
    const updated = await this.db('outlet.settlement_accounts')
      .where({ id, status: 'scheduled' })
      .andWhere('effective_at', '>', this.db.fn.now())
      .update({ status, ended_at: this.db.fn.now(), ended_by: by });
    return updated === 1;
  }

  async audit(row: Omit<AuditRow, 'at'>): Promise<void> {
    await this.db('outlet.settlement_account_audit').insert({
      id: row.id,
      merchant_id: row.merchantId,
      outlet_id: row.outletId,
      account_id: row.accountId,
      action: row.action,
      actor: row.actor,
      old_account: row.oldAccount,
      new_account: row.newAccount,
      effective_at: row.effectiveAt,
      at: this.db.fn.now(),
    });
  }

  /** The merchant's audit rows, newest first. */
  async auditOf(merchantId: string, limit: number): Promise<AuditRow[]> {
    const rows = await this.rows<AuditRow>(
      `select id, merchant_id as "merchantId", outlet_id as "outletId", account_id as "accountId", action, actor,
              old_account as "oldAccount", new_account as "newAccount", effective_at as "effectiveAt", at
         from outlet.settlement_account_audit where merchant_id = ? order by at desc, id desc limit ?`,
      [merchantId, limit],
    );
    return rows.map((r) => withDates(r, ['effectiveAt', 'at']));
  }

  /** A row still scheduled (the cooling-off job checks it is still the change it was queued for). */
  async scheduled(id: string): Promise<{ merchantId: string } | null> {
    const rows = await this.rows<{ merchantId: string }>(
      `select merchant_id as "merchantId" from outlet.settlement_accounts where id = ? and status = 'scheduled'`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Tells the REST caches that the merchant's bank view changed (docs/decisions/0010-caches-and-copies.md). */
  async notifyChanged(merchantId: string): Promise<void> {
    await this.rows(`select pg_notify('qris_invalidate', ?)`, [`merchant:${merchantId}`]);
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }
}
