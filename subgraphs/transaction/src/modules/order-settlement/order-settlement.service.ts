import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError } from '@lib/errors/app-error';
import { OrderSettlementRepository } from './order-settlement.repository';
import type { OrderSettlementResultInput, OrderSettlementType } from './order-settlement.type';

/** What the catalog may answer for a settlement (catalog qris_settlements.outcome). */
export const SETTLEMENT_OUTCOMES = [
  'applied',
  'order_not_found',
  'other_outlet',
  'order_voided',
  'order_refunded',
  'order_already_paid',
  'amount_mismatch',
] as const;
const DECIMAL_ID = /^[1-9][0-9]{0,18}$/;

/**
 * The settlement outbox (docs/decisions/0201-qris-payloads.md "Sales orders"): claimed by the REST process's
 * dispatcher, which applies each row in the catalog subgraph (idempotent there) and completes it with the outcome.
 */
export class OrderSettlementService {
  private readonly repo: OrderSettlementRepository;

  constructor(em: EntityManager) {
    this.repo = new OrderSettlementRepository(em);
  }

  async claim(limit: number): Promise<OrderSettlementType[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new BadInputError('limit must be 1 to 500');
    return (await this.repo.claimDue(limit)).map((r) => ({
      id: r.id,
      qrisPaymentId: r.qris_payment_id,
      merchantId: r.merchant_id,
      outletId: r.outlet_id,
      salesOrderId: r.sales_order_id,
      amount: Number(r.amount),
      transactionId: r.transaction_id,
      paidAt: new Date(r.paid_at),
      attempts: r.attempts,
    }));
  }

  async complete(results: readonly OrderSettlementResultInput[]): Promise<number> {
    if (results.length > 500) throw new BadInputError('at most 500 results');
    for (const r of results) {
      if (!DECIMAL_ID.test(r.id)) throw new BadInputError('id must be an outbox row id');
      if (!(SETTLEMENT_OUTCOMES as readonly string[]).includes(r.outcome)) throw new BadInputError(`unknown outcome ${r.outcome}`);
    }
    return this.repo.complete(results);
  }
}
