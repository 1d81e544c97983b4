import type { Principal } from '@lib/auth/principal';
import { assertUserMay } from '@lib/domain/access/user-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '@lib/db/sync-pull';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { OrderAlreadyVoidedError, PosInputError, PosNotFoundError, requireInt } from '../pos/pos.errors';
import { StockRepository } from '../stock/stock.repository';
import { moveStock } from '../stock/stock.service';
import { type OrderRow, SalesOrderRepository } from './sales-order.repository';
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

/** Sales orders of one merchant: they arrive from devices (sync push); here they are read and voided. */
export class SalesOrderService {
  private readonly repo: SalesOrderRepository;

  constructor(em: EntityManager) {
    this.repo = new SalesOrderRepository(em);
  }

  async list(merchantId: string, filter: OrderFilter): Promise<SalesOrderType[]> {
    const limit = filter.limit == null ? ORDER_LIST_DEFAULT : requireInt('limit', filter.limit, 1, ORDER_LIST_MAX);
    const offset = filter.offset == null ? 0 : requireInt('offset', filter.offset, 0, 1_000_000);
    if (filter.outletId != null && !UUID_PATTERN.test(filter.outletId)) throw new PosInputError('outlet_id must be a UUID');
    if (filter.status != null && !ORDER_STATUSES.includes(filter.status)) {
      throw new PosInputError(`status must be one of ${ORDER_STATUSES.join(', ')}`);
    }
    const rows = await this.repo.list(merchantId, {
      outletId: filter.outletId ?? null,
      status: filter.status ?? null,
      from: filter.from ?? null,
      before: filter.before ?? null,
      limit,
      offset,
    });
    return rows.map(toOrder);
  }

  /** The merchant's order; a user needs its outlet in scope (FORBIDDEN otherwise, decision 0061). */
  async get(principal: Principal, merchantId: string, id: string): Promise<SalesOrderType> {
    const row = UUID_PATTERN.test(id) ? await this.repo.byId(merchantId, id) : undefined;
    if (!row) throw new PosNotFoundError('sales order');
    assertUserMay(principal, 'read', { outletId: row.outlet_id });
    return toOrder(row);
  }

  async items(orderId: string): Promise<SalesOrderItemType[]> {
    const rows = await this.repo.itemsOf(orderId);
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
    const rows = await this.repo.paymentsOf(orderId);
    return rows.map((r) => ({ id: r.id, method: r.method, amount: Number(r.amount) }));
  }

  /**
   * Voids an order under a row lock: status voided, voided_at now, and the stock its tracked lines took goes
   * back through `void` movements in the same transaction. A voided order cannot be voided again. A user needs the
   * sell family on its outlet (FORBIDDEN otherwise).
   */
  async void(principal: Principal, merchantId: string, id: string, reason: string | null): Promise<SalesOrderType> {
    if (reason != null && reason.length > 500) throw new PosInputError('void_reason must be at most 500 characters');
    if (!UUID_PATTERN.test(id)) throw new PosNotFoundError('sales order');
    return this.repo.sqlTransaction(async (tx) => {
      const order = await tx.lockById(merchantId, id);
      if (!order) throw new PosNotFoundError('sales order');
      assertUserMay(principal, 'sell', { outletId: order.outlet_id });
      if (order.status === 'voided') throw new OrderAlreadyVoidedError();
      const now = new Date();
      const row = await tx.markVoided(id, reason?.trim() || null, now);
      const lines = await tx.trackedQuantities(id);
      await moveStock(
        tx.peer(StockRepository),
        lines.map((line) => ({
          merchantId,
          outletId: order.outlet_id,
          variantId: line.variant_id,
          delta: BigInt(line.quantity),
          reason: 'void' as const,
          salesOrderId: id,
          occurredAt: now,
        })),
      );
      return toOrder(row);
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
