import { Repository } from '@lib/db/repository';

/** A row of `transaction.sales_order_settlements`: a paid dynamic QRIS payment to be applied to its sales order. */
export interface OrderSettlementRow {
  id: string;
  qris_payment_id: string;
  merchant_id: string;
  outlet_id: string;
  sales_order_id: string;
  amount: string | number;
  transaction_id: string;
  paid_at: Date;
  attempts: number;
}

const COLUMNS = `id::text as id, qris_payment_id, merchant_id, outlet_id, sales_order_id, amount, transaction_id, paid_at, attempts`;

/** The settlement outbox: appended by matching (qris-payment.repository.ts), claimed and completed by the dispatcher. */
export class OrderSettlementRepository extends Repository {
  /**
   * Claims up to `limit` rows not settled yet: unclaimed, or whose claim lapsed (the claimer died or its call
   * failed). The lease doubles with each attempt, from 30 s to at most an hour: a failing row is retried less often
   * but never given up (the money moved). Copies never claim one row together (`for update skip locked`).
   */
  async claimDue(limit: number): Promise<OrderSettlementRow[]> {
    return this.rows<OrderSettlementRow>(
      `update "transaction".sales_order_settlements s
       set attempts = s.attempts + 1,
           claimed_until = now() + make_interval(secs => least(30 * power(2, least(s.attempts, 7)), 3600))
       where s.id in (
         select id from "transaction".sales_order_settlements
         where settled_at is null and (claimed_until is null or claimed_until < now())
         order by id limit ? for update skip locked)
       returning ${COLUMNS}`,
      [limit],
    );
  }

  /** Writes the catalog's outcome of each row; the number written (a row already settled is left as it is). */
  async complete(results: readonly { id: string; outcome: string }[]): Promise<number> {
    if (results.length === 0) return 0;
    const rows = await this.rows(
      `update "transaction".sales_order_settlements s set settled_at = now(), outcome = r.outcome
       from unnest(?::bigint[], ?::text[]) as r(id, outcome)
       where s.id = r.id and s.settled_at is null returning s.id`,
      [results.map((r) => r.id), results.map((r) => r.outcome)],
    );
    return rows.length;
  }
}
