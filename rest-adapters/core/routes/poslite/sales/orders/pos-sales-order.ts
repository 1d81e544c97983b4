import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { PosSalesOrderDetailFragment, PosSalesOrderHeaderFragment } from '@rest-adapters/generated/operations';

const header = {
  id: Type.String({ format: 'uuid' }),
  merchant_id: Type.String({ format: 'uuid' }),
  outlet_id: Type.String({ format: 'uuid' }),
  receipt_number: Type.String({
    description:
      '`<YYYYMMDD>-<n>`: the Asia/Jakarta date of `transacted_at`, then the running number of the (merchant, outlet), at least 6 digits, e.g. `20261124-000042`. Unique per outlet, without gaps.',
  }),
  status: Type.String({ description: 'open, completed, voided or refunded (devices push completed orders).' }),
  source: Type.String({ description: 'As the device sent it; `offline` when it sent none.' }),
  transacted_at: Type.String({ format: 'date-time', description: 'When the device made the sale.' }),
  subtotal_amount: Type.Integer({ description: 'Rupiah: Σ line_total_amount.' }),
  total_amount: Type.Integer({
    description:
      'Rupiah: subtotal − order discount + tax, both as the device computed them (the server does not recompute tax from the products’ tax_rate_bps).',
  }),
  paid_amount: Type.Integer({ description: 'Rupiah: Σ payments; never less than total_amount.' }),
  change_amount: Type.Integer({ description: 'Rupiah: paid_amount − total_amount.' }),
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
      sku_snapshot: Nullable(Type.String({ description: 'As sold; the variant’s SKU when the device sent none.' })),
      name_snapshot: Type.String({ description: 'As sold; the product’s name when the device sent none.' }),
      quantity: Type.Integer({ description: 'Whole units, at least 1.' }),
      unit_price_amount: Type.Integer({ description: 'Rupiah.' }),
      line_total_amount: Type.Integer({ description: 'Rupiah: quantity × unit_price_amount.' }),
    }),
  ),
  payments: Type.Array(
    Type.Object({ id: Type.String({ format: 'uuid' }), method: Type.String(), amount: Type.Integer({ description: 'Rupiah, above 0.' }) }),
  ),
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
