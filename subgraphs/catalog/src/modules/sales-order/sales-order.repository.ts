import { Repository } from '@lib/db/repository';

/** A sales order as read (plain row; amounts as text). */
export interface OrderRow {
  id: string;
  merchant_id: string;
  outlet_id: string;
  receipt_number: string;
  status: string;
  source: string;
  transacted_at: Date;
  subtotal_amount: string;
  discount_amount: string;
  tax_amount: string;
  total_amount: string;
  paid_amount: string;
  change_amount: string;
  voided_at: Date | null;
  void_reason: string | null;
}

/** A settlement of an order by a dynamic QRIS payment, as recorded (`catalog.qris_settlements`). */
export interface QrisSettlementRow {
  qris_payment_id: string;
  merchant_id: string;
  outlet_id: string;
  sales_order_id: string;
  amount: number;
  transaction_id: string;
  paid_at: Date;
  outcome: 'applied' | 'order_not_found' | 'other_outlet' | 'order_voided' | 'order_refunded' | 'order_already_paid' | 'amount_mismatch';
  order_status: string | null;
  created_at: Date;
}

export interface OrderListQuery {
  outletId: string | null;
  status: string | null;
  from: Date | null;
  before: Date | null;
  limit: number;
  offset: number;
}

/** A variant an order line names, with what the order needs of its product. */
export interface OrderVariant {
  id: string;
  sku: string;
  name: string;
  track_stock: boolean;
}

/**
 * Sales orders (`catalog.sales_orders`, their items and payments, the receipt counters), plain rows scoped by the
 * merchant: read and voided here, created by device pushes (sales-order-intake.ts) inside the push's transaction.
 */
export class SalesOrderRepository extends Repository {
  /** The merchant's orders, newest first (transacted_at, id). */
  list(merchantId: string, q: OrderListQuery): Promise<OrderRow[]> {
    const query = this.db<OrderRow>('catalog.sales_orders').where({ merchant_id: merchantId });
    if (q.outletId != null) query.andWhere({ outlet_id: q.outletId });
    if (q.status != null) query.andWhere({ status: q.status });
    if (q.from) query.andWhere('transacted_at', '>=', q.from);
    if (q.before) query.andWhere('transacted_at', '<', q.before);
    return query
      .orderBy([
        { column: 'transacted_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(q.limit)
      .offset(q.offset);
  }

  byId(merchantId: string, id: string): Promise<OrderRow | undefined> {
    return this.db<OrderRow>('catalog.sales_orders').where({ id, merchant_id: merchantId }).first();
  }

  /** The same row locked for update (inside `sqlTransaction`). */
  lockById(merchantId: string, id: string): Promise<OrderRow | undefined> {
    return this.db<OrderRow>('catalog.sales_orders').where({ id, merchant_id: merchantId }).forUpdate().first();
  }

  itemsOf(orderId: string): Promise<Record<string, any>[]> {
    return this.db('catalog.sales_order_items').where({ sales_order_id: orderId }).orderBy('line_no');
  }

  paymentsOf(orderId: string): Promise<Record<string, any>[]> {
    return this.db('catalog.sales_order_payments').where({ sales_order_id: orderId }).orderBy('id');
  }

  async markVoided(id: string, reason: string | null, now: Date): Promise<OrderRow> {
    const [row] = await this.db('catalog.sales_orders')
      .where({ id })
      .update({ status: 'voided', voided_at: now, void_reason: reason, updated_at: now })
      .returning('*');
    return row as OrderRow;
  }

  /** Quantity per variant of the order's lines whose product tracks stock, by variant. */
  trackedQuantities(orderId: string): Promise<{ variant_id: string; quantity: string }[]> {
    return this.rows<{ variant_id: string; quantity: string }>(
      `select i.variant_id, sum(i.quantity)::bigint as quantity
           from catalog.sales_order_items i
           join catalog.variants v on v.id = i.variant_id
           join catalog.products p on p.id = v.product_id
          where i.sales_order_id = ? and p.track_stock
          group by i.variant_id order by i.variant_id`,
      [orderId],
    );
  }

  /** The merchant's variants among these ids, deleted ones included, with their product's name and stock tracking. */
  variantsOf(merchantId: string, variantIds: string[]): Promise<OrderVariant[]> {
    return this.rows<OrderVariant>(
      `select v.id, v.sku, p.name, p.track_stock from catalog.variants v join catalog.products p on p.id = v.product_id
      where v.merchant_id = ? and v.id = any(?::uuid[])`,
      [merchantId, variantIds],
    );
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db('catalog.sales_orders').where({ id }).first('id')) !== undefined;
  }

  /** The outlet's next receipt number (its counter, created at 1). */
  async nextReceiptNumber(merchantId: string, outletId: string): Promise<number> {
    const [{ last_number: number }] = await this.rows<{ last_number: string | number }>(
      `insert into catalog.receipt_counters (merchant_id, outlet_id, last_number) values (?, ?, 1)
       on conflict (merchant_id, outlet_id) do update set last_number = catalog.receipt_counters.last_number + 1
       returning last_number`,
      [merchantId, outletId],
    );
    return Number(number);
  }

  async insertOrder(row: Record<string, unknown>): Promise<void> {
    await this.db('catalog.sales_orders').insert(row);
  }

  async insertItems(rows: Record<string, unknown>[]): Promise<void> {
    await this.db('catalog.sales_order_items').insert(rows);
  }

  async insertPayments(rows: Record<string, unknown>[]): Promise<void> {
    await this.db('catalog.sales_order_payments').insert(rows);
  }

  async qrisSettlementOf(qrisPaymentId: string): Promise<QrisSettlementRow | undefined> {
    const [row] = await this.rows<QrisSettlementRow>(`select * from catalog.qris_settlements where qris_payment_id = ?`, [qrisPaymentId]);
    return row;
  }

  /** Records a settlement once per payment; false when one was recorded already. */
  async recordQrisSettlement(row: QrisSettlementRow): Promise<boolean> {
    const inserted = await this.rows(
      `insert into catalog.qris_settlements (qris_payment_id, merchant_id, outlet_id, sales_order_id, amount, transaction_id, paid_at,
         outcome, order_status, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (qris_payment_id) do nothing returning qris_payment_id`,
      [
        row.qris_payment_id,
        row.merchant_id,
        row.outlet_id,
        row.sales_order_id,
        row.amount,
        row.transaction_id,
        row.paid_at,
        row.outcome,
        row.order_status,
        row.created_at,
      ],
    );
    return inserted.length === 1;
  }

  /** A payment of `amount` on a locked open order: paid, and completed once paid in full (change when over). */
  async addPayment(orderId: string, amount: number): Promise<void> {
    await this.rows(
      `update catalog.sales_orders set paid_amount = paid_amount + ?::bigint,
         change_amount = greatest(paid_amount + ?::bigint - total_amount, 0),
         status = case when paid_amount + ?::bigint >= total_amount then 'completed' else status end,
         updated_at = now()
       where id = ?`,
      [amount, amount, amount, orderId],
    );
  }
}
