import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { PosSalesOrderDetailFragment, PosSalesOrderHeaderFragment } from '@rest-adapters/generated/operations';

const header = {
  id: Type.String({ format: 'uuid' }),
  merchant_id: Type.String({ format: 'uuid' }),
  outlet_id: Type.String({ format: 'uuid' }),
  receipt_number: Type.String(),
  status: Type.String({ description: 'open, completed, voided or refunded.' }),
  source: Type.String(),
  transacted_at: Type.String({ format: 'date-time' }),
  subtotal_amount: Type.Integer(),
  total_amount: Type.Integer(),
  paid_amount: Type.Integer(),
  change_amount: Type.Integer(),
  voided_at: Nullable(Type.String({ format: 'date-time' })),
};

/** core-api.md §2 Sales order header. */
export const SalesOrderHeader = Type.Object(header);

/** The header with items and payments. */
export const SalesOrderDetail = Type.Object({
  ...header,
  items: Type.Array(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      line_no: Type.Integer(),
      variant_id: Nullable(Type.String({ format: 'uuid' })),
      sku_snapshot: Nullable(Type.String()),
      name_snapshot: Type.String(),
      quantity: Type.Integer(),
      unit_price_amount: Type.Integer(),
      line_total_amount: Type.Integer(),
    }),
  ),
  payments: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), method: Type.String(), amount: Type.Integer() })),
});

export function toHeader(o: PosSalesOrderHeaderFragment) {
  return {
    id: o.id,
    merchant_id: o.merchantId,
    outlet_id: o.outletId,
    receipt_number: o.receiptNumber,
    status: o.status,
    source: o.source,
    transacted_at: o.transactedAt,
    subtotal_amount: o.subtotalAmount,
    total_amount: o.totalAmount,
    paid_amount: o.paidAmount,
    change_amount: o.changeAmount,
    voided_at: o.voidedAt,
  };
}

export function toDetail(o: PosSalesOrderDetailFragment) {
  return {
    ...toHeader(o),
    items: o.items.map((i) => ({
      id: i.id,
      line_no: i.lineNo,
      variant_id: i.variantId,
      sku_snapshot: i.skuSnapshot,
      name_snapshot: i.nameSnapshot,
      quantity: i.quantity,
      unit_price_amount: i.unitPriceAmount,
      line_total_amount: i.lineTotalAmount,
    })),
    payments: o.payments.map((p) => ({ id: p.id, method: p.method, amount: p.amount })),
  };
}
