import { v7 as uuidv7 } from 'uuid';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { CustomerRepository } from '../customer/customer.repository';
import { PushRejection, epochMillis, integer, text, uuid } from '../pos/push-rejection';
import { StockRepository } from '../stock/stock.repository';
import { moveStock } from '../stock/stock.service';
import type { OrderVariant, SalesOrderRepository } from './sales-order.repository';

const MAX_LINES = 500;
const MAX_PAYMENTS = 20;
/** Receipt numbers carry the Jakarta date of the sale. */
const JAKARTA = new ZonedCalendar('Asia/Jakarta');

interface Line {
  lineNo: number;
  variantId: string;
  skuSnapshot: string | null;
  nameSnapshot: string | null;
  quantity: bigint;
  unitPrice: bigint;
  lineTotal: bigint;
}

interface Payment {
  method: string;
  amount: bigint;
}

interface PushedOrder {
  outletId: string;
  customerId: string | null;
  status: 'completed' | 'open';
  source: string;
  transactedAt: Date;
  subtotal: bigint;
  discount: bigint;
  tax: bigint;
  total: bigint;
  paid: bigint;
  change: bigint;
  lines: Line[];
  payments: Payment[];
}

type Variants = Map<string, OrderVariant>;

/**
 * A sale pushed by a device (`sales_order` create; entity_id is the order id): `completed` (the default), or `open`
 * — not paid in full yet, e.g. waiting for a dynamic QRIS payment, which completes it on the server
 * (qris-settlement.service.ts). The arithmetic must hold exactly, in integer rupiah: line_total = quantity ×
 * unit_price; subtotal = Σ line_total; total = subtotal − discount + tax (order-level discount and tax as the device
 * computed them, both ≥ 0, discount ≤ subtotal); paid = Σ payments; completed: change = paid − total ≥ 0; open:
 * paid < total (payments may be none, or a part such as cash) and change 0. The receipt number comes from the (merchant, outlet) counter;
 * tracked products' stock moves out through `sale` movements, all in the caller's transaction.
 */
export async function createSalesOrder(
  orders: SalesOrderRepository,
  merchantId: string,
  orderId: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const order = readOrder(payload);
  checkTotals(order);
  const variants = await checkReferences(orders, merchantId, orderId, order);
  await insertOrder(orders, merchantId, orderId, order, variants);
  await moveSoldStock(orders, merchantId, orderId, order, variants);
}

/** The pushed order's fields, each checked on its own (type, range, shape); checkTotals checks how they add up. */
function readOrder(payload: Record<string, unknown>): PushedOrder {
  const outletId = uuid(payload, 'outlet_id', true)!;
  const customerId = uuid(payload, 'customer_id', false);
  const status = text(payload, 'status', 16, false) ?? 'completed';
  if (status !== 'completed' && status !== 'open') throw new PushRejection('status must be completed or open');
  return {
    outletId,
    customerId,
    status,
    source: text(payload, 'source', 32, false) ?? 'offline',
    transactedAt: epochMillis(payload, 'transacted_at'),
    subtotal: integer(payload, 'subtotal_amount', 0),
    discount: integer(payload, 'discount_amount', 0, 0),
    tax: integer(payload, 'tax_amount', 0, 0),
    total: integer(payload, 'total_amount', 0),
    paid: integer(payload, 'paid_amount', 0),
    change: integer(payload, 'change_amount', 0),
    lines: readLines(payload.items),
    payments: readPayments(payload.payments ?? (status === 'open' ? [] : undefined), status),
  };
}

function readLines(items: unknown): Line[] {
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_LINES)
    throw new PushRejection(`items must hold 1 to ${MAX_LINES} lines`);
  const lines: Line[] = items.map((raw, i) => {
    if (!raw || typeof raw !== 'object') throw new PushRejection(`items[${i}] must be an object`);
    const item = raw as Record<string, unknown>;
    const line: Line = {
      lineNo: Number(integer(item, 'line_no', 1, i + 1)),
      variantId: uuid(item, 'variant_id', true)!,
      skuSnapshot: text(item, 'sku_snapshot', 64, false),
      nameSnapshot: text(item, 'name_snapshot', 200, false),
      quantity: integer(item, 'quantity', 1),
      unitPrice: integer(item, 'unit_price_amount', 0),
      lineTotal: integer(item, 'line_total_amount', 0),
    };
    if (line.lineTotal !== line.quantity * line.unitPrice) {
      throw new PushRejection(
        `items[${i}]: line_total_amount ${line.lineTotal} ≠ quantity × unit_price_amount = ${line.quantity * line.unitPrice}`,
      );
    }
    return line;
  });
  if (new Set(lines.map((l) => l.lineNo)).size !== lines.length) throw new PushRejection('line_no must be distinct');
  return lines;
}

function readPayments(payments: unknown, status: PushedOrder['status']): Payment[] {
  const minPayments = status === 'open' ? 0 : 1;
  if (!Array.isArray(payments) || payments.length < minPayments || payments.length > MAX_PAYMENTS) {
    throw new PushRejection(`payments must hold ${minPayments} to ${MAX_PAYMENTS} payments`);
  }
  return payments.map((raw, i) => {
    if (!raw || typeof raw !== 'object') throw new PushRejection(`payments[${i}] must be an object`);
    const p = raw as Record<string, unknown>;
    return { method: text(p, 'method', 32, true)!, amount: integer(p, 'amount', 1) };
  });
}

/** The arithmetic of the order, exactly in integer rupiah (see createSalesOrder). */
function checkTotals({ status, subtotal, discount, tax, total, paid, change, lines, payments }: PushedOrder): void {
  const sumLines = lines.reduce((sum, l) => sum + l.lineTotal, 0n);
  if (subtotal !== sumLines) throw new PushRejection(`subtotal_amount ${subtotal} ≠ sum of line totals ${sumLines}`);
  if (discount > subtotal) throw new PushRejection('discount_amount must not exceed subtotal_amount');
  if (total !== subtotal - discount + tax)
    throw new PushRejection(`total_amount ${total} ≠ subtotal − discount + tax = ${subtotal - discount + tax}`);
  const sumPaid = payments.reduce((sum, p) => sum + p.amount, 0n);
  if (paid !== sumPaid) throw new PushRejection(`paid_amount ${paid} ≠ sum of payments ${sumPaid}`);
  if (status === 'open') {
    if (paid >= total) throw new PushRejection(`an open order must have paid_amount ${paid} below total_amount ${total}`);
    if (change !== 0n) throw new PushRejection('change_amount of an open order must be 0');
  } else {
    if (paid < total) throw new PushRejection(`paid_amount ${paid} is less than total_amount ${total}`);
    if (change !== paid - total) throw new PushRejection(`change_amount ${change} ≠ paid − total = ${paid - total}`);
  }
}

/** The order's variants (by id), customer and id checked against what the merchant has; answers the variants. */
async function checkReferences(orders: SalesOrderRepository, merchantId: string, orderId: string, order: PushedOrder): Promise<Variants> {
  const variantIds = [...new Set(order.lines.map((l) => l.variantId))];
  // Variants of the merchant, deleted ones included: an offline device may sell a product deleted meanwhile.
  const variants = await orders.variantsOf(merchantId, variantIds);
  const byId: Variants = new Map(variants.map((v) => [v.id, v]));
  const unknown = variantIds.filter((id) => !byId.has(id));
  if (unknown.length) throw new PushRejection(`unknown variant ${unknown[0]}`);
  if (order.customerId && !(await orders.peer(CustomerRepository).exists(merchantId, order.customerId))) {
    throw new PushRejection('customer not found');
  }
  if (await orders.exists(orderId)) throw new PushRejection('sales order already exists');
  return byId;
}

/** The order with its receipt number, its lines (snapshots default to the variant's SKU and name) and payments. */
async function insertOrder(
  orders: SalesOrderRepository,
  merchantId: string,
  orderId: string,
  order: PushedOrder,
  variants: Variants,
): Promise<void> {
  const number = await orders.nextReceiptNumber(merchantId, order.outletId);
  const day = JAKARTA.dateOf(order.transactedAt).replaceAll('-', '');
  const now = new Date();
  await orders.insertOrder({
    id: orderId,
    merchant_id: merchantId,
    outlet_id: order.outletId,
    customer_id: order.customerId,
    receipt_number: receiptNumber(day, number),
    status: order.status,
    source: order.source,
    transacted_at: order.transactedAt,
    subtotal_amount: order.subtotal.toString(),
    discount_amount: order.discount.toString(),
    tax_amount: order.tax.toString(),
    total_amount: order.total.toString(),
    paid_amount: order.paid.toString(),
    change_amount: order.change.toString(),
    created_at: now,
    updated_at: now,
  });
  await orders.insertItems(
    order.lines.map((l) => ({
      id: uuidv7(),
      sales_order_id: orderId,
      line_no: l.lineNo,
      variant_id: l.variantId,
      sku_snapshot: l.skuSnapshot ?? variants.get(l.variantId)!.sku,
      name_snapshot: l.nameSnapshot ?? variants.get(l.variantId)!.name,
      quantity: l.quantity.toString(),
      unit_price_amount: l.unitPrice.toString(),
      line_total_amount: l.lineTotal.toString(),
    })),
  );
  if (order.payments.length > 0)
    await orders.insertPayments(
      order.payments.map((p) => ({ id: uuidv7(), sales_order_id: orderId, method: p.method, amount: p.amount.toString() })),
    );
}

/** Tracked products' stock moves out through `sale` movements. */
async function moveSoldStock(
  orders: SalesOrderRepository,
  merchantId: string,
  orderId: string,
  order: PushedOrder,
  variants: Variants,
): Promise<void> {
  // In variant order, so concurrent orders lock stock rows in one order (no deadlock between them).
  const tracked = [...variants.keys()].sort().filter((variantId) => variants.get(variantId)!.track_stock);
  await moveStock(
    orders.peer(StockRepository),
    tracked.map((variantId) => ({
      merchantId,
      outletId: order.outletId,
      variantId,
      delta: -order.lines.filter((l) => l.variantId === variantId).reduce((sum, l) => sum + l.quantity, 0n),
      reason: 'sale' as const,
      salesOrderId: orderId,
      occurredAt: order.transactedAt,
    })),
  );
}

/** `<Jakarta date of the sale, YYYYMMDD>-<running number of the outlet, at least 6 digits>`, e.g. 20261124-000042. */
export function receiptNumber(day: string, number: number): string {
  return `${day}-${String(number).padStart(6, '0')}`;
}
