import { Repository } from '@lib/db/repository';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.repository';

/** A sandbox NMID (lib/domain/sandbox/sandbox-nmid.ts) in SQL: a second wall around every statement here. */
const SANDBOX_NMID = `'^ID99[0-9]{13}$'`;

/** The calling sandbox bank's merchants, from this subgraph's copy of payment targets. */
const BANK_MERCHANTS = `select merchant_id from "transaction".payment_target_merchants where bank_id = ?`;

export interface SandboxDayTotals {
  count: number;
  gross_amount: string;
  mdr_total: string;
}

/**
 * What the transaction subgraph keeps of a sandbox bank's sandbox (docs/decisions/0015-demo-data-and-sandbox.md):
 * every statement names the bank (its code on rows the bank wrote, its id for its merchants' rows) and is run only for
 * a bank principal marked sandbox.
 */
export class SandboxRepository extends Repository {
  /** Pending dynamic QRIS payments of the bank's merchants expire `secs` sooner; the number moved. */
  async moveQrisExpiries(bankId: string, secs: number): Promise<number> {
    const moved = await this.rows(
      `update "transaction".qris_payments set expires_at = expires_at - make_interval(secs => ?), updated_at = now()
        where status = 'pending' and expires_at > now() and nmid ~ ${SANDBOX_NMID}
          and merchant_id in (${BANK_MERCHANTS})
        returning id`,
      [secs, bankId],
    );
    return moved.length;
  }

  /** The bank's unsettled successful transactions of the NMID on the Jakarta business date: what a settlement would match. */
  async unsettledDay(bankCode: string, nmid: string, date: string): Promise<SandboxDayTotals> {
    const [row] = await this.rows<SandboxDayTotals>(
      `select count(*)::int as count, coalesce(sum(gross_amount), 0)::text as gross_amount,
              coalesce(sum(coalesce(mdr_fee_amount, 0)), 0)::text as mdr_total
         from "transaction".transactions
        where bank_code = ? and nmid = ? and nmid ~ ${SANDBOX_NMID} and status = 'success' and settlement_status = 'unsettled'
          and transaction_at >= (?::date)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}'
          and transaction_at < (?::date + 1)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}'`,
      [bankCode, nmid, date, date],
    );
    return row;
  }

  /**
   * Deletes what the bank's sandbox wrote here: its events, transactions, settlements and feed rows (by bank code),
   * and its merchants' dynamic QRIS payments, unmatched payments, order settlements and daily rollups. Counts.
   */
  async reset(
    bankId: string,
    bankCode: string,
  ): Promise<Record<'transactions' | 'paymentEvents' | 'settlements' | 'qrisPayments', number>> {
    const count = async (sql: string, params: unknown[]) => (await this.rows(`${sql} returning 1`, params)).length;
    await count(`delete from "transaction".payment_feed where bank_code = ? or merchant_id in (${BANK_MERCHANTS})`, [bankCode, bankId]);
    await count(`delete from "transaction".qris_unmatched_payments where bank_code = ? or merchant_id in (${BANK_MERCHANTS})`, [
      bankCode,
      bankId,
    ]);
    const qrisPayments = await count(
      `delete from "transaction".qris_payments where nmid ~ ${SANDBOX_NMID} and merchant_id in (${BANK_MERCHANTS})`,
      [bankId],
    );
    await count(`delete from "transaction".sales_order_settlements where merchant_id in (${BANK_MERCHANTS})`, [bankId]);
    const transactions = await count(`delete from "transaction".transactions where bank_code = ?`, [bankCode]);
    await count(`delete from "transaction".transaction_codes where bank_code = ?`, [bankCode]);
    const paymentEvents = await count(`delete from "transaction".payment_events where bank_code = ?`, [bankCode]);
    await count(`delete from "transaction".payment_event_keys where bank_code = ?`, [bankCode]);
    const settlements = await count(`delete from "transaction".settlements where bank_code = ?`, [bankCode]);
    await count(`delete from "transaction".merchant_daily_rollups where merchant_id in (${BANK_MERCHANTS})`, [bankId]);
    return { transactions, paymentEvents, settlements, qrisPayments };
  }
}
