import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { QrisPaymentFieldsFragment } from '@rest-adapters/generated/operations';

/** A dynamic QRIS payment (docs/decisions/0201-qris-payloads.md). */
export const QrisPayment = Type.Object({
  id: Type.String({ format: 'uuid' }),
  outlet_id: Type.String({ format: 'uuid' }),
  amount: Type.Integer({ description: 'Whole rupiah.' }),
  bill_number: Type.String({ description: 'Tag 62.01 of the payload; the bank event’s reference_number that settles it.' }),
  qris_payload: Type.String({ description: 'EMVCo/QRIS payload, point of initiation 12, amount in tag 54: show it as a QR code.' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('paid'), Type.Literal('expired'), Type.Literal('cancelled')]),
  sales_order_id: Nullable(Type.String({ format: 'uuid' })),
  expires_at: Type.String({ format: 'date-time' }),
  paid_at: Nullable(Type.String({ format: 'date-time' })),
  transaction_id: Nullable(Type.String({ format: 'uuid' })),
  created_at: Type.String({ format: 'date-time' }),
});
export type QrisPayment = Static<typeof QrisPayment>;

export function toQrisPayment(p: QrisPaymentFieldsFragment): QrisPayment {
  return {
    id: p.id,
    outlet_id: p.outletId,
    amount: p.amount,
    bill_number: p.billNumber,
    qris_payload: p.qrisPayload,
    status: p.status as QrisPayment['status'],
    sales_order_id: p.salesOrderId,
    expires_at: p.expiresAt,
    paid_at: p.paidAt,
    transaction_id: p.transactionId,
    created_at: p.createdAt,
  };
}

export const MATCHING_RULES = [
  'Matching (in the bank event intake’s transaction): a `transaction.success` or `qris.payment.success` event for the outlet’s NMID whose `reference_number` equals `bill_number` and whose `gross_amount` equals `amount`, with `transaction_at` not after `expires_at`, marks the payment `paid` once (`paid_at` = the event’s `transaction_at`, `transaction_id` = its transaction), also under concurrent replays.',
  'A wrong amount, an expired or cancelled payment, a payment already paid, another outlet’s NMID or an unknown bill number is kept as an unmatched payment for reconciliation; the bank’s event is still recorded as a transaction.',
  '`expired`: still pending after `expires_at`. `cancelled`: cancelled by POST …/payments/qris/{id}/cancel. A linked sales order is marked paid on the server once the payment is paid (see POST …/payments/qris).',
].join('\n');
