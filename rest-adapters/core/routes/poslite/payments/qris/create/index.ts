import { Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { CreateQrisPaymentDocument, PosQrisPaymentOutletDocument } from '@rest-adapters/generated/operations';
import { MATCHING_RULES, QrisPayment, toQrisPayment } from '../qris-payment';

const Body = Type.Object({
  outlet_id: Type.String({ format: 'uuid' }),
  amount: Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Whole rupiah, 1 to 10,000,000 (the QRIS cap per transaction).' }),
  sales_order_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  expires_in_secs: Type.Optional(Nullable(Type.Integer({ minimum: 60, maximum: 86_400, description: 'Default 900.' }))),
});

/**
 * Two operations in two subgraphs, because the payload is derived from the outlet's static QRIS (outlet subgraph,
 * scoped to the merchant and the member's outlets) and the payment is the transaction subgraph's: (1) the outlet's
 * NMID and static payload, (2) the payment.
 */
export default posRoutes({
  method: 'POST',
  path: '/payments/qris',
  summary: 'Create a dynamic QRIS for one sale',
  description: [
    'A dynamic QRIS (point of initiation 12) for `amount` at `outlet_id`: the outlet’s static QRIS with the amount in tag 54 and a unique `bill_number` in tag 62.01, CRC recomputed. Staff, admins and owners of the outlet may create one (viewers: 403). 404 `not_found` for an outlet that is not the merchant’s; 409 `qris_unavailable` when the outlet has no QRIS (no NMID).',
    'Idempotency: with an `Idempotency-Key` header (1–255 visible ASCII characters), the same key and body answer 201 with the payment the first request created (header `Idempotent-Replayed: true`); the same key with another body is 409 `idempotency_key_reused`. Keys are per merchant.',
    MATCHING_RULES,
  ].join('\n\n'),
  schema: { body: Body, response: { 201: QrisPayment, ...errorResponses(400, 401, 403, 404, 409, 429) } },
  operationId: 'CreateQrisPayment',
  status: 201,
  run: async ({ body }, { execute, header, request }) => {
    const key = request.headers['idempotency-key'];
    if (Array.isArray(key)) throw new HttpError(400, 'bad_request', 'one Idempotency-Key header');
    if (key !== undefined && !/^[\x21-\x7E]{1,255}$/.test(key))
      throw new HttpError(400, 'bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    const { posOutlet: outlet } = await execute(PosQrisPaymentOutletDocument, { id: body.outlet_id });
    if (!outlet.nmid || !outlet.qrisStaticPayload)
      throw new HttpError(409, 'qris_unavailable', 'the outlet has no QRIS yet (no NMID assigned)');
    const { createQrisPayment: payment } = await execute(CreateQrisPaymentDocument, {
      input: {
        outletId: outlet.id,
        amount: body.amount,
        salesOrderId: body.sales_order_id ?? null,
        expiresInSecs: body.expires_in_secs ?? null,
        idempotencyKey: key ?? null,
        nmid: outlet.nmid,
        staticPayload: outlet.qrisStaticPayload,
      },
    });
    if (payment.idempotentReplay) header('idempotent-replayed', 'true');
    return toQrisPayment(payment);
  },
});
