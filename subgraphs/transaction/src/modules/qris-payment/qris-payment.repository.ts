import { Repository } from '@lib/db/repository';

/** A payment intent as stored (`transaction.qris_payments`). */
export interface QrisPaymentRow {
  id: string;
  merchant_id: string;
  outlet_id: string;
  nmid: string;
  amount: string | number;
  bill_number: string;
  qris_payload: string;
  sales_order_id: string | null;
  status: 'pending' | 'paid' | 'cancelled';
  expires_at: Date;
  cancelled_at?: Date | null;
  paid_at: Date | null;
  transaction_id: string | null;
  payment_event_id: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: Date;
}

export type UnmatchedReason = 'unknown_bill_number' | 'other_outlet' | 'amount_mismatch' | 'expired' | 'cancelled' | 'already_paid';

export interface UnmatchedPaymentRow {
  id: string;
  payment_event_id: string;
  transaction_id: string | null;
  bank_code: string;
  nmid: string;
  merchant_id: string | null;
  outlet_id: string | null;
  bill_number: string;
  gross_amount: number | null;
  reason: UnmatchedReason;
  qris_payment_id: string | null;
  transaction_at: Date;
  created_at: Date;
}

/** QRIS payment intents and unmatched payments: plain SQL, in the caller's transaction when it has one. */
export class QrisPaymentRepository extends Repository {
  /** Inserts the payment unless the merchant already used its Idempotency-Key; the row inserted, else undefined. */
  async insertUnlessKeyTaken(
    row: Omit<QrisPaymentRow, 'status' | 'paid_at' | 'transaction_id' | 'payment_event_id'> & Record<string, unknown>,
  ) {
    const [inserted] = await this.rows<QrisPaymentRow>(
      `insert into "transaction".qris_payments (id, merchant_id, outlet_id, nmid, amount, bill_number, qris_payload, sales_order_id,
         expires_at, idempotency_key, request_hash, created_by_user_id, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (merchant_id, idempotency_key) where idempotency_key is not null do nothing
       returning *`,
      [
        row.id,
        row.merchant_id,
        row.outlet_id,
        row.nmid,
        row.amount,
        row.bill_number,
        row.qris_payload,
        row.sales_order_id,
        row.expires_at,
        row.idempotency_key,
        row.request_hash,
        row.created_by_user_id ?? null,
        row.created_at,
        row.created_at,
      ],
    );
    return inserted;
  }

  async byIdempotencyKey(merchantId: string, key: string): Promise<QrisPaymentRow | undefined> {
    const [row] = await this.rows<QrisPaymentRow>(
      `select * from "transaction".qris_payments where merchant_id = ? and idempotency_key = ?`,
      [merchantId, key],
    );
    return row;
  }

  async byId(merchantId: string, id: string): Promise<QrisPaymentRow | undefined> {
    const [row] = await this.rows<QrisPaymentRow>(`select * from "transaction".qris_payments where merchant_id = ? and id = ?`, [
      merchantId,
      id,
    ]);
    return row;
  }

  /** The payment of a bill number, locked until the intake transaction ends: concurrent events settle it one at a time. */
  async lockByBillNumber(billNumber: string): Promise<QrisPaymentRow | undefined> {
    const [row] = await this.rows<QrisPaymentRow>(`select * from "transaction".qris_payments where bill_number = ? for update`, [
      billNumber,
    ]);
    return row;
  }

  /** pending → paid; false when it was no longer pending. */
  async markPaid(id: string, paid: { paidAt: Date; transactionId: string; paymentEventId: string }): Promise<boolean> {
    const changed = await this.rows(
      `update "transaction".qris_payments set status = 'paid', paid_at = ?, transaction_id = ?, payment_event_id = ?, updated_at = now()
       where id = ? and status = 'pending' returning id`,
      [paid.paidAt, paid.transactionId, paid.paymentEventId, id],
    );
    return changed.length === 1;
  }

  /** The payment by id, locked until the caller's transaction ends (cancel and match take turns on it). */
  async lockById(merchantId: string, id: string): Promise<QrisPaymentRow | undefined> {
    const [row] = await this.rows<QrisPaymentRow>(`select * from "transaction".qris_payments where merchant_id = ? and id = ? for update`, [
      merchantId,
      id,
    ]);
    return row;
  }

  /** pending → cancelled (a pending payment past its expiry included); the row, or undefined when it was not pending. */
  async markCancelled(id: string): Promise<QrisPaymentRow | undefined> {
    const [row] = await this.rows<QrisPaymentRow>(
      `update "transaction".qris_payments set status = 'cancelled', cancelled_at = now(), updated_at = now()
       where id = ? and status = 'pending' returning *`,
      [id],
    );
    return row;
  }

  /**
   * Serialises payment creation for one sales order until the caller's transaction ends (a transaction-level advisory
   * lock on the order id), so "no other live payment for the order" is checked and kept without a race.
   */
  async lockSalesOrder(salesOrderId: string): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended('transaction.qris_sales_order:' || ?, 0))`, [salesOrderId]);
  }

  /** A pending, unexpired payment of the merchant's sales order, if any. */
  async livePaymentOfOrder(merchantId: string, salesOrderId: string): Promise<QrisPaymentRow | undefined> {
    const [row] = await this.rows<QrisPaymentRow>(
      `select * from "transaction".qris_payments
       where sales_order_id = ? and merchant_id = ? and status = 'pending' and expires_at > now() order by created_at limit 1`,
      [salesOrderId, merchantId],
    );
    return row;
  }

  /**
   * Queues "this payment of a sales order was paid" for the catalog (the settlement outbox), in the intake
   * transaction that matched it; once per payment.
   */
  async enqueueOrderSettlement(row: {
    qris_payment_id: string;
    merchant_id: string;
    outlet_id: string;
    sales_order_id: string;
    amount: number;
    transaction_id: string;
    paid_at: Date;
  }): Promise<void> {
    await this.rows(
      `insert into "transaction".sales_order_settlements (qris_payment_id, merchant_id, outlet_id, sales_order_id, amount, transaction_id, paid_at)
       values (?, ?, ?, ?, ?, ?, ?) on conflict (qris_payment_id) do nothing`,
      [row.qris_payment_id, row.merchant_id, row.outlet_id, row.sales_order_id, row.amount, row.transaction_id, row.paid_at],
    );
  }

  /**
   * Unmatched payments newest first (by id: UUIDv7, creation order) after the cursor's id, with the filters given;
   * `limit` rows.
   */
  async listUnmatched(q: {
    merchantId: string | null;
    outletId: string | null;
    reason: string | null;
    from: Date | null;
    before: Date | null;
    afterId: string | null;
    limit: number;
  }): Promise<UnmatchedPaymentRow[]> {
    const query = this.db<UnmatchedPaymentRow>('transaction.qris_unmatched_payments');
    if (q.merchantId) query.where('merchant_id', q.merchantId);
    if (q.outletId) query.where('outlet_id', q.outletId);
    if (q.reason) query.where('reason', q.reason);
    if (q.from) query.where('transaction_at', '>=', q.from);
    if (q.before) query.where('transaction_at', '<', q.before);
    if (q.afterId) query.where('id', '<', q.afterId);
    return query.orderBy('id', 'desc').limit(q.limit);
  }

  /** Records an unmatched payment once per event (a replay of the event records nothing more). */
  async recordUnmatched(row: UnmatchedPaymentRow): Promise<void> {
    await this.rows(
      `insert into "transaction".qris_unmatched_payments (id, payment_event_id, transaction_id, bank_code, nmid, merchant_id, outlet_id,
         bill_number, gross_amount, reason, qris_payment_id, transaction_at, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (payment_event_id) do nothing`,
      [
        row.id,
        row.payment_event_id,
        row.transaction_id,
        row.bank_code,
        row.nmid,
        row.merchant_id,
        row.outlet_id,
        row.bill_number,
        row.gross_amount,
        row.reason,
        row.qris_payment_id,
        row.transaction_at,
        row.created_at,
      ],
    );
  }
}
