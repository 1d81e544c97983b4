import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { QrisPaymentDocument } from '@rest-adapters/generated/operations';
import { MATCHING_RULES, QrisPayment, toQrisPayment } from '../qris-payment';
import { DEMO_QRIS_PAYMENT } from '@rest-adapters/core/examples';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export default posRoutes({
  method: 'GET',
  path: '/payments/qris/:id',
  summary: 'A dynamic QRIS payment and its status',
  description: [
    '`status` is `pending`, `paid` (with `paid_at` and `transaction_id`), `expired` or `cancelled`. 404 `not_found` for another merchant’s or an unknown payment; 403 for a member whose outlets do not include its outlet.',
    MATCHING_RULES,
  ].join('\n\n'),
  schema: { params: Params, response: { 200: QrisPayment, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'QrisPayment',
  examples: {
    params: { id: DEMO_QRIS_PAYMENT.id },
    responses: {
      200: {
        ...DEMO_QRIS_PAYMENT,
        status: 'paid',
        paid_at: '2026-11-25T02:43:09.000Z',
        transaction_id: '019abc4e-7f10-7a3c-9d2e-5b1f0c8e4a30',
      },
    },
  },
  run: async ({ params }, { execute }) => toQrisPayment((await execute(QrisPaymentDocument, { id: params.id })).qrisPayment),
});
