import { v7 as uuidv7 } from 'uuid';
import { PushRejection, epochMillis, text, uuid } from '../pos/push-rejection';
import { ProductRepository } from '../product/product.repository';
import type { StockRepository } from './stock.repository';

export const STOCK_REASONS = ['sale', 'void', 'adjustment', 'restock', 'waste'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

export interface StockMove {
  merchantId: string;
  outletId: string;
  variantId: string;
  /** Signed: negative takes stock out. */
  delta: bigint;
  reason: StockReason;
  salesOrderId?: string | null;
  note?: string | null;
  occurredAt: Date;
  id?: string;
}

/**
 * The only way stock changes: a stock_movements row per move and the matching product_stock changes, in the caller's
 * transaction, two statements whatever the number of moves (at most one per outlet and variant, in the order their
 * stock rows are to be locked). The upsert is atomic (no lost updates between concurrent sales); stock may go
 * negative, since offline devices sell what is on the shelf whatever the server last counted.
 */
export async function moveStock(stock: StockRepository, moves: StockMove[]): Promise<void> {
  if (moves.length === 0) return;
  const now = new Date();
  await stock.insertMovements(
    moves.map((move) => ({
      id: move.id ?? uuidv7(),
      merchant_id: move.merchantId,
      outlet_id: move.outletId,
      variant_id: move.variantId,
      quantity_delta: move.delta.toString(),
      reason: move.reason,
      sales_order_id: move.salesOrderId ?? null,
      note: move.note ?? null,
      occurred_at: move.occurredAt,
      created_at: now,
    })),
  );
  await stock.addToStock(
    moves.map((move) => ({
      id: uuidv7(),
      merchantId: move.merchantId,
      outletId: move.outletId,
      variantId: move.variantId,
      delta: move.delta,
      now,
    })),
  );
}

/** A stock movement pushed by a device (`stock_movement` create; entity_id is the movement id). */
export async function createStockMovement(
  stock: StockRepository,
  merchantId: string,
  id: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const outletId = uuid(payload, 'outlet_id', true)!;
  const variantId = uuid(payload, 'variant_id', true)!;
  const delta = payload.quantity_delta;
  if (typeof delta !== 'number' || !Number.isSafeInteger(delta) || delta === 0)
    throw new PushRejection('quantity_delta must be a non-zero integer');
  const reason = text(payload, 'reason', 16, true)!;
  if (!['adjustment', 'restock', 'waste'].includes(reason)) throw new PushRejection('reason must be adjustment, restock or waste');
  const note = text(payload, 'note', 500, false);
  const occurredAt = epochMillis(payload, 'occurred_at');
  if (!(await stock.peer(ProductRepository).hasVariant(merchantId, variantId))) throw new PushRejection(`unknown variant ${variantId}`);
  if (await stock.movementExists(id)) throw new PushRejection('stock movement already exists');
  await moveStock(stock, [{ id, merchantId, outletId, variantId, delta: BigInt(delta), reason: reason as 'adjustment', note, occurredAt }]);
}
