import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { pgTime } from '@lib/db/sync-pull';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { OrderAlreadyVoidedError, PosInputError, PosNotFoundError, requireInt } from '../pos/pos.errors';
import { moveStock } from '../stock/stock.service';
import type { SalesOrderItemType, SalesOrderPaymentType, SalesOrderType } from './sales-order.type';

/** Order list page: 50 by default, at most 200 (core-api.md §8). */
export const ORDER_LIST_DEFAULT = 50;
export const ORDER_LIST_MAX = 200;
const ORDER_STATUSES = ['open', 'completed', 'voided', 'refunded'];

export interface OrderFilter {
  outletId?: string | null;
  status?: string | null;
  from?: Date | null;
  before?: Date | null;
  limit?: number | null;
  offset?: number | null;
}

interface OrderRow {
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

/** Sales orders of one merchant: they arrive from devices (sync push); here they are read and voided. */
export class SalesOrderService {
  constructor(private readonly em: EntityManager) {}

  private get db(): Knex {
    return this.em.getKnex();
  }

  async list(merchantId: string, filter: OrderFilter): Promise<SalesOrderType[]> {
    const limit = filter.limit == null ? ORDER_LIST_DEFAULT : requireInt('limit', filter.limit, 1, ORDER_LIST_MAX);
    const offset = filter.offset == null ? 0 : requireInt('offset', filter.offset, 0, 1_000_000);
    const query = this.db<OrderRow>('catalog.sales_orders').where({ merchant_id: merchantId });
    if (filter.outletId != null) {
      if (!UUID_PATTERN.test(filter.outletId)) throw new PosInputError('outlet_id must be a UUID');
      query.andWhere({ outlet_id: filter.outletId });
    }
    if (filter.status != null) {
      if (!ORDER_STATUSES.includes(filter.status)) throw new PosInputError(`status must be one of ${ORDER_STATUSES.join(', ')}`);
      query.andWhere({ status: filter.status });
    }
    if (filter.from) query.andWhere('transacted_at', '>=', filter.from);
    if (filter.before) query.andWhere('transacted_at', '<', filter.before);
    const rows = await query
      .orderBy([
        { column: 'transacted_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset);
    return rows.map(toOrder);
  }

  async get(merchantId: string, id: string): Promise<SalesOrderType> {
    const row = UUID_PATTERN.test(id)
      ? await this.db<OrderRow>('catalog.sales_orders').where({ id, merchant_id: merchantId }).first()
      : undefined;
    if (!row) throw new PosNotFoundError('sales order');
    return toOrder(row);
  }

  async items(orderId: string): Promise<SalesOrderItemType[]> {
    const rows = await this.db('catalog.sales_order_items').where({ sales_order_id: orderId }).orderBy('line_no');
    return rows.map((r) => ({
      id: r.id,
      lineNo: r.line_no,
      variantId: r.variant_id,
      skuSnapshot: r.sku_snapshot,
      nameSnapshot: r.name_snapshot,
      quantity: Number(r.quantity),
      unitPriceAmount: Number(r.unit_price_amount),
      lineTotalAmount: Number(r.line_total_amount),
    }));
  }

  async payments(orderId: string): Promise<SalesOrderPaymentType[]> {
    const rows = await this.db('catalog.sales_order_payments').where({ sales_order_id: orderId }).orderBy('id');
    return rows.map((r) => ({ id: r.id, method: r.method, amount: Number(r.amount) }));
  }

  /**
   * Voids an order under a row lock: status voided, voided_at now, and the stock its tracked lines took goes
   * back through `void` movements in the same transaction. A voided order cannot be voided again.
   */
  async void(merchantId: string, id: string, reason: string | null): Promise<SalesOrderType> {
    if (reason != null && reason.length > 500) throw new PosInputError('void_reason must be at most 500 characters');
    if (!UUID_PATTERN.test(id)) throw new PosNotFoundError('sales order');
    return this.db.transaction(async (trx) => {
      const order = await trx<OrderRow>('catalog.sales_orders').where({ id, merchant_id: merchantId }).forUpdate().first();
      if (!order) throw new PosNotFoundError('sales order');
      if (order.status === 'voided') throw new OrderAlreadyVoidedError();
      const now = new Date();
      const [row] = await trx('catalog.sales_orders')
        .where({ id })
        .update({ status: 'voided', voided_at: now, void_reason: reason?.trim() || null, updated_at: now })
        .returning('*');
      const lines = await trx.raw(
        `select i.variant_id, sum(i.quantity)::bigint as quantity
           from catalog.sales_order_items i
           join catalog.variants v on v.id = i.variant_id
           join catalog.products p on p.id = v.product_id
          where i.sales_order_id = ? and p.track_stock
          group by i.variant_id order by i.variant_id`,
        [id],
      );
      for (const line of lines.rows as { variant_id: string; quantity: string }[]) {
        await moveStock(trx, {
          merchantId,
          outletId: order.outlet_id,
          variantId: line.variant_id,
          delta: BigInt(line.quantity),
          reason: 'void',
          salesOrderId: id,
          occurredAt: now,
        });
      }
      return toOrder(row as OrderRow);
    });
  }
}

export function toOrder(row: OrderRow): SalesOrderType {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    outletId: row.outlet_id,
    receiptNumber: row.receipt_number,
    status: row.status,
    source: row.source,
    transactedAt: pgTime(row.transacted_at),
    subtotalAmount: Number(row.subtotal_amount),
    discountAmount: Number(row.discount_amount),
    taxAmount: Number(row.tax_amount),
    totalAmount: Number(row.total_amount),
    paidAmount: Number(row.paid_amount),
    changeAmount: Number(row.change_amount),
    voidedAt: pgTime(row.voided_at),
    voidReason: row.void_reason,
  };
}
