import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { type QrisSettlementRow, SalesOrderRepository } from './sales-order.repository';
import type { QrisSettlementInput, QrisSettlementOutcomeType } from './sales-order.type';

export type SettlementOutcome = QrisSettlementRow['outcome'];

/**
 * Marks sales orders paid by their dynamic QRIS payments (docs/decisions/0201-qris-payloads.md "Sales orders"): the
 * transaction subgraph matched a bank event to a payment linked to an order, and its settlement outbox reaches here
 * through the REST process's dispatcher, at least once. Each settlement is applied in its own transaction under the
 * order's row lock and recorded in `qris_settlements` (primary key: the payment), so a repeat answers the first
 * outcome and changes nothing.
 *
 * - An open order of the payment's outlet whose amount left to pay equals the payment gets a payment row (method
 *   `qris`, with the QRIS payment and transaction), paid_amount += amount and status `completed`.
 * - Anything else changes no order and is recorded with its outcome for reconciliation (the money did move):
 *   order_not_found, other_outlet, order_voided, order_refunded, order_already_paid (completed meanwhile, e.g. paid
 *   by other means), amount_mismatch.
 * The order's write stamps `updated_at` (trigger), so devices pull it (sync entity `sales_orders`).
 */
export class QrisSettlementService {
  private readonly repo: SalesOrderRepository;

  constructor(em: EntityManager) {
    this.repo = new SalesOrderRepository(em);
  }

  async settle(items: readonly QrisSettlementInput[]): Promise<QrisSettlementOutcomeType[]> {
    if (items.length > 500) throw new BadInputError('at most 500 settlements');
    for (const i of items) {
      for (const id of [i.qrisPaymentId, i.merchantId, i.outletId, i.salesOrderId, i.transactionId])
        if (!UUID_PATTERN.test(id)) throw new BadInputError('ids must be UUIDs');
      if (!Number.isSafeInteger(i.amount) || i.amount < 1) throw new BadInputError('amount must be a positive whole number');
    }
    const outcomes: QrisSettlementOutcomeType[] = [];
    // One at a time, each in its own transaction: one order's failure does not hold back the others' commits.
    for (const item of items) outcomes.push({ qrisPaymentId: item.qrisPaymentId, outcome: await this.settleOne(item) });
    return outcomes;
  }

  private settleOne(item: QrisSettlementInput): Promise<SettlementOutcome> {
    const paymentId = item.qrisPaymentId.toLowerCase();
    const merchantId = item.merchantId.toLowerCase();
    const orderId = item.salesOrderId.toLowerCase();
    return this.repo.sqlTransaction(async (tx) => {
      // The order's lock first: a concurrent repeat waits here, then finds the first one's record.
      const order = await tx.lockById(merchantId, orderId);
      const earlier = await tx.qrisSettlementOf(paymentId);
      if (earlier) return earlier.outcome;
      const outcome = outcomeFor(order, item);
      const recorded = await tx.recordQrisSettlement({
        qris_payment_id: paymentId,
        merchant_id: merchantId,
        outlet_id: item.outletId.toLowerCase(),
        sales_order_id: orderId,
        amount: item.amount,
        transaction_id: item.transactionId.toLowerCase(),
        paid_at: item.paidAt,
        outcome,
        order_status: order?.status ?? null,
        created_at: new Date(),
      });
      // Another transaction recorded it first (an order that does not exist takes no lock): its outcome stands.
      if (!recorded) return (await tx.qrisSettlementOf(paymentId))!.outcome;
      if (outcome === 'applied') {
        await tx.insertPayments([
          {
            id: uuidv7(),
            sales_order_id: orderId,
            method: 'qris',
            amount: item.amount,
            qris_payment_id: paymentId,
            transaction_id: item.transactionId.toLowerCase(),
          },
        ]);
        await tx.addPayment(orderId, item.amount);
      }
      return outcome;
    });
  }
}

/** What a settlement does to `order` (rules in the class comment). */
export function outcomeFor(
  order: { outlet_id: string; status: string; total_amount: string | number; paid_amount: string | number } | undefined,
  item: Pick<QrisSettlementInput, 'outletId' | 'amount'>,
): SettlementOutcome {
  if (!order) return 'order_not_found';
  if (order.outlet_id !== item.outletId.toLowerCase()) return 'other_outlet';
  if (order.status === 'voided') return 'order_voided';
  if (order.status === 'refunded') return 'order_refunded';
  if (order.status !== 'open') return 'order_already_paid';
  if (Number(order.total_amount) - Number(order.paid_amount) !== item.amount) return 'amount_mismatch';
  return 'applied';
}
