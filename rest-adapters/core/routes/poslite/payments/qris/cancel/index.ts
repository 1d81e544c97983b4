import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { CancelQrisPaymentDocument } from '@rest-adapters/generated/operations';
import { QrisPayment, toQrisPayment } from '../qris-payment';
import { DEMO_QRIS_PAYMENT } from '@rest-adapters/core/examples';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export default posRoutes({
  method: 'POST',
  path: '/payments/qris/:id/cancel',
  summary: 'Cancel a dynamic QRIS payment that is not paid',
  description: [
    '200 with the payment, `status` `cancelled`: a pending payment (also one past `expires_at`) is cancelled, its open event streams (GET …/payments/qris/{id}/events) end with `cancelled`, and a bank payment that still arrives for its bill number is kept as an unmatched payment (reason `cancelled`) for reconciliation. Cancelling a cancelled payment answers the same body again (idempotent).',
    '409 `qris_payment_paid` when it is paid (nothing changes: refund it instead). Staff, admins and owners of the payment’s outlet may cancel (viewers and members of other outlets: 403); another merchant’s or an unknown payment is 404 `not_found`.',
    'A POS cancels the payment before it voids or re-prices the sales order the payment is linked to, or before it creates another payment for that order.',
  ].join('\n\n'),
  schema: { params: Params, response: { 200: QrisPayment, ...errorResponses(400, 401, 403, 404, 409, 429) } },
  operationId: 'CancelQrisPayment',
  examples: { params: { id: DEMO_QRIS_PAYMENT.id }, responses: { 200: { ...DEMO_QRIS_PAYMENT, status: 'cancelled' } } },
  run: async ({ params }, { execute }) => toQrisPayment((await execute(CancelQrisPaymentDocument, { id: params.id })).cancelQrisPayment),
});
