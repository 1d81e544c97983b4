import { Repository } from '@lib/db/repository';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.repository';

/** The statuses of the transactions a success created: they carry the MDR recorded at intake (0240). */
export const RATED_STATUSES = ['success', 'refunded', 'reversed'];

/** A merchant's fee-guard figures of one month (Asia/Jakarta), whole rupiah. */
export interface OverchargeMonthRow {
  merchant_id: string;
  month: string;
  transaction_count: number;
  overcharged_count: number;
  bank_fee_amount: number;
  expected_fee_amount: number;
  overcharge_amount: number;
  settlements_overcharged: number;
  settlement_overcharge_amount: number;
}

/** A settlement whose bank-reported MDR total is above the policy's fees of the transactions it settled. */
export interface SettlementOverchargeRow {
  settlement_ref: string;
  settlement_id: string;
  bank_code: string;
  nmid: string;
  settlement_date: string;
  mdr_total: number;
  expected_mdr_total: number;
  overcharge_amount: number;
}

/** A transaction as the re-rating reads and rewrites it. */
export interface RatedTransactionRow {
  id: string;
  gross_amount: number;
  /** As PostgreSQL renders it (exact, for the update to find the row again). */
  transaction_at: string;
  at_ms: number;
  mdr_rate: string;
  mdr_fee_amount: number;
}

/** An audit row of `mdr_rerates`. */
export interface RerateAuditRow {
  id: string;
  merchant_id: string;
  period_from: Date;
  period_before: Date;
  criteria: string;
  reason: string;
  requested_by: string;
  transactions: number;
  changed: number;
  fee_before: number;
  fee_after: number;
  at: Date;
}

const MONTH = `to_char(t.transaction_at at time zone '${SETTLEMENT_TIME_ZONE}', 'YYYY-MM')`;
const JAKARTA_DAY = (date: string) => `(${date})::timestamp at time zone '${SETTLEMENT_TIME_ZONE}'`;

/**
 * The settlements of the merchants `merchantFilter` names (SQL on s) in [from, before) by settlement date whose
 * `mdr_total` is above the policy's fees (`mdr_fee_amount`) of the transactions they settled; only settlements that
 * settled their whole gross (matched_amount = gross_amount) are compared.
 */
const overchargedSettlements = (merchantFilter: string) => `
  select s.id as settlement_ref, s.merchant_id, s.settlement_id, s.bank_code, s.nmid, s.settlement_date::text as settlement_date,
         s.mdr_total::float8 as mdr_total, e.expected::float8 as expected_mdr_total, (s.mdr_total - e.expected)::float8 as overcharge_amount
    from "transaction".settlements s
    cross join lateral (
      select coalesce(sum(t.mdr_fee_amount), 0) as expected from "transaction".transactions t
       where t.merchant_id = s.merchant_id and t.settlement_ref = s.id
         and t.transaction_at >= ${JAKARTA_DAY('s.settlement_date')} and t.transaction_at < ${JAKARTA_DAY('s.settlement_date + 1')}) e
   where ${merchantFilter} and s.status = 'success' and s.matched_amount = s.gross_amount and s.mdr_total > e.expected
     and s.settlement_date >= (?::timestamptz at time zone '${SETTLEMENT_TIME_ZONE}')::date
     and s.settlement_date < (?::timestamptz at time zone '${SETTLEMENT_TIME_ZONE}')::date`;

/**
 * The fee guard (docs/decisions/0240-mdr-policy.md): each transaction keeps the bank's reported fee (`mdr_fee_bank`)
 * beside the policy's (`mdr_fee_amount`); this compares them per transaction, per settlement and per merchant and month.
 * Also the operator's re-rating of a merchant's period and its audit (`mdr_rerates`).
 */
export class FeeGuardRepository extends Repository {
  /**
   * Per month (Asia/Jakarta) of [from, before) with rated transactions of the merchants (all when null): the
   * transactions, those the bank charged more than the policy's fee, the fees and the overcharge, and the settlements
   * flagged; merchants with an overcharge only when `overchargedOnly`. Highest overcharge first, then month.
   */
  async months(
    filter: { merchantIds: string[] | null; from: Date; before: Date; overchargedOnly: boolean },
    limit: number,
  ): Promise<OverchargeMonthRow[]> {
    const merchants = filter.merchantIds === null ? 'true' : 't.merchant_id = any(?::uuid[])';
    const settlementMerchants = filter.merchantIds === null ? 's.merchant_id is not null' : 's.merchant_id = any(?::uuid[])';
    const ids = filter.merchantIds === null ? [] : [filter.merchantIds];
    return this.rows<OverchargeMonthRow>(
      `with tx as (
         select t.merchant_id, ${MONTH} as month, count(*)::int as transaction_count,
                (count(*) filter (where t.mdr_fee_bank > t.mdr_fee_amount))::int as overcharged_count,
                sum(t.mdr_fee_bank)::float8 as bank_fee_amount, sum(t.mdr_fee_amount)::float8 as expected_fee_amount,
                coalesce(sum(t.mdr_fee_bank - t.mdr_fee_amount) filter (where t.mdr_fee_bank > t.mdr_fee_amount), 0)::float8 as overcharge_amount
           from "transaction".transactions t
          where ${merchants} and t.status = any(?::text[]) and t.transaction_at >= ? and t.transaction_at < ?
          group by 1, 2
       ), st as (
         select o.merchant_id, to_char(o.settlement_date::date, 'YYYY-MM') as month, count(*)::int as settlements_overcharged,
                sum(o.overcharge_amount)::float8 as settlement_overcharge_amount
           from (${overchargedSettlements(settlementMerchants)}) o
          group by 1, 2
       )
       select coalesce(tx.merchant_id, st.merchant_id) as merchant_id, coalesce(tx.month, st.month) as month,
              coalesce(tx.transaction_count, 0) as transaction_count, coalesce(tx.overcharged_count, 0) as overcharged_count,
              coalesce(tx.bank_fee_amount, 0) as bank_fee_amount, coalesce(tx.expected_fee_amount, 0) as expected_fee_amount,
              coalesce(tx.overcharge_amount, 0) as overcharge_amount, coalesce(st.settlements_overcharged, 0) as settlements_overcharged,
              coalesce(st.settlement_overcharge_amount, 0) as settlement_overcharge_amount
         from tx full join st on st.merchant_id = tx.merchant_id and st.month = tx.month
        where not ? or coalesce(tx.overcharge_amount, 0) > 0 or coalesce(st.settlements_overcharged, 0) > 0
        order by overcharge_amount desc, settlement_overcharge_amount desc, month, merchant_id
        limit ?`,
      [...ids, RATED_STATUSES, filter.from, filter.before, ...ids, filter.from, filter.before, filter.overchargedOnly, limit],
    );
  }

  /** The merchant's flagged settlements in [from, before) by settlement date (Asia/Jakarta), latest first. */
  settlements(merchantId: string, from: Date, before: Date, limit: number): Promise<SettlementOverchargeRow[]> {
    return this.rows<SettlementOverchargeRow>(
      `select * from (${overchargedSettlements('s.merchant_id = ?')}) o order by settlement_date desc, settlement_id limit ?`,
      [merchantId, from, before, limit],
    );
  }

  /** The merchant's category and business scale in this subgraph's copy (undefined: not copied yet). */
  async merchantFacts(merchantId: string): Promise<{ category_code: string | null; business_scale_code: string | null } | undefined> {
    const [row] = await this.rows<{ category_code: string | null; business_scale_code: string | null }>(
      `select category_code, business_scale_code from "transaction".payment_target_merchants where merchant_id = ?`,
      [merchantId],
    );
    return row;
  }

  /** The merchant's rated transactions in [from, before), locked for the re-rating. */
  ratedTransactions(merchantId: string, from: Date, before: Date): Promise<RatedTransactionRow[]> {
    return this.rows<RatedTransactionRow>(
      `select id, gross_amount::float8 as gross_amount, transaction_at::text as transaction_at,
              (extract(epoch from transaction_at) * 1000)::float8 as at_ms, mdr_rate::text as mdr_rate, mdr_fee_amount::float8 as mdr_fee_amount
         from "transaction".transactions
        where merchant_id = ? and status = any(?::text[]) and transaction_at >= ? and transaction_at < ?
        order by transaction_at, id
          for update`,
      [merchantId, RATED_STATUSES, from, before],
    );
  }

  /** Writes new rates and fees (net follows), each row found by its id and time (its partition). */
  async rewriteFees(rows: readonly { id: string; transaction_at: string; mdr_rate: string; mdr_fee_amount: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.rows(
      `update "transaction".transactions t
          set mdr_rate = x.mdr_rate, mdr_fee_amount = x.mdr_fee_amount, net_amount_after_mdr = t.gross_amount - x.mdr_fee_amount,
              updated_at = now()
         from json_to_recordset(?::json) as x(id uuid, transaction_at timestamptz, mdr_rate numeric, mdr_fee_amount bigint)
        where t.id = x.id and t.transaction_at = x.transaction_at`,
      [JSON.stringify(rows)],
    );
  }

  async audit(row: RerateAuditRow): Promise<void> {
    await this.rows(
      `insert into "transaction".mdr_rerates (id, merchant_id, period_from, period_before, criteria, reason, requested_by, transactions,
                                               changed, fee_before, fee_after, at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.merchant_id,
        row.period_from,
        row.period_before,
        row.criteria,
        row.reason,
        row.requested_by,
        row.transactions,
        row.changed,
        row.fee_before,
        row.fee_after,
        row.at,
      ],
    );
  }

  /** The merchant's re-ratings, newest first. */
  async audits(merchantId: string, limit: number): Promise<RerateAuditRow[]> {
    const rows = await this.rows<RerateAuditRow>(
      `select id, merchant_id, period_from, period_before, criteria, reason, requested_by, transactions, changed,
              fee_before::float8 as fee_before, fee_after::float8 as fee_after, at
         from "transaction".mdr_rerates where merchant_id = ? order by at desc, id desc limit ?`,
      [merchantId, limit],
    );
    // timestamptz comes as text (lib/db/plain-rows.ts)
    return rows.map((row) => ({
      ...row,
      period_from: new Date(row.period_from),
      period_before: new Date(row.period_before),
      at: new Date(row.at),
    }));
  }
}
