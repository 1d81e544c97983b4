import { Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { idempotencyKeyOf, idempotencyRule } from '@rest-adapters/core/routes/poslite/idempotency-key';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { CreateQrisPaymentDocument, PosQrisPaymentOutletDocument, PosQrisPaymentTargetDocument } from '@rest-adapters/generated/operations';
import { MATCHING_RULES, QrisPayment, toQrisPayment } from '../qris-payment';
import { DEMO_QRIS_PAYMENT } from '@rest-adapters/core/examples';

const Body = Type.Object({
  outlet_id: Type.String({ format: 'uuid' }),
  amount: Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Whole rupiah, 1 to 10,000,000 (the QRIS cap per transaction).' }),
  sales_order_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  expires_in_secs: Type.Optional(Nullable(Type.Integer({ minimum: 60, maximum: 86_400, description: 'Default 900.' }))),
});

/**
 * Two operations: (1) the outlet (outlet subgraph, scoped to the merchant and the member's outlets), with the sales
 * order when one is named (one query, two subgraphs in parallel), (2) the payment (transaction subgraph), whose NMID
 * and payload come from that subgraph's own data; it checks the order as the catalog answered here, after answering a
 * replay, and the catalog checks the order again when the payment settles it (docs/decisions/0201-qris-payloads.md,
 * "Sales orders").
 */
export default posRoutes({
  method: 'POST',
  path: '/payments/qris',
  summary: 'Create a dynamic QRIS for one sale',
  description: [
    'A dynamic QRIS (point of initiation 12) for `amount` at `outlet_id`: the outlet’s static QRIS with the amount in tag 54 and a unique `bill_number` in tag 62.01, CRC recomputed. Staff, admins and owners of the outlet may create one (viewers: 403). 404 `not_found` for an outlet that is not the merchant’s; 409 `qris_unavailable` when the outlet has no QRIS (no NMID).',
    'Sales order: with `sales_order_id`, the order must be the merchant’s (else 404 `not_found`), of the same outlet (else 400 `bad_request`), `open` (pushed by the device with `status: open`; else 409 `sales_order_not_open`), and `amount` must be what is left to pay on it, `total_amount − paid_amount` (else 400 `bad_request`). An order has at most one live payment: another pending, unexpired one is 409 `sales_order_payment_pending` (cancel it first). When the payment is paid, the order is marked paid on the server: a payment of method `qris` for the amount, `paid_amount` up by it, `status` `completed` (shown by GET …/sales/orders/{id} and the sync pull of `sales_orders`, usually within a second).',
    idempotencyRule('payment'),
    MATCHING_RULES,
  ].join('\n\n'),
  schema: { body: Body, response: { 201: QrisPayment, ...errorResponses(400, 401, 403, 404, 409, 429) } },
  operationId: 'CreateQrisPayment',
  examples: {
    body: { outlet_id: DEMO_QRIS_PAYMENT.outlet_id, amount: 25_000, sales_order_id: null, expires_in_secs: 900 },
    responses: { 201: DEMO_QRIS_PAYMENT },
  },
  status: 201,
  run: async ({ body }, { execute, header, request }) => {
    const key = idempotencyKeyOf(request);
    const orderId = body.sales_order_id ?? null;
    const target =
      orderId === null
        ? { ...(await execute(PosQrisPaymentOutletDocument, { id: body.outlet_id })), posSalesOrder: null }
        : await execute(PosQrisPaymentTargetDocument, { id: body.outlet_id, salesOrderId: orderId });
    const { posOutlet: outlet, posSalesOrder: order } = target;
    if (!outlet.nmid) throw new HttpError(409, 'qris_unavailable', 'the outlet has no QRIS yet (no NMID assigned)');
    const { createQrisPayment: payment } = await execute(CreateQrisPaymentDocument, {
      input: {
        outletId: outlet.id,
        amount: body.amount,
        salesOrderId: orderId,
        salesOrder: order && {
          outletId: order.outletId,
          status: order.status,
          totalAmount: order.totalAmount,
          paidAmount: order.paidAmount,
        },
        expiresInSecs: body.expires_in_secs ?? null,
        idempotencyKey: key,
      },
    });
    if (payment.idempotentReplay) header('idempotent-replayed', 'true');
    return toQrisPayment(payment);
  },
});
