import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { VoidPosSalesOrderDocument } from '@rest-adapters/generated/operations';
import { SalesOrderDetail, toDetail } from '../pos-sales-order';
import { DEMO_SALES_ORDER } from '@rest-adapters/core/examples';

/** Voiding a voided order answers the documented 500 (docs/decisions/0057-sales-orders-and-receipt-numbers.md). */
export default posRoutes({
  method: 'PATCH',
  path: '/sales/orders/:id',
  summary: 'Void a sales order (stock of tracked products returns)',
  description: [
    'Only `action: void` (any other action is 400 `bad_request`). Sets the order `voided` with `voided_at` now and `void_reason`, and returns the stock its tracked products took through `void` movements, in one transaction.',
    '',
    '- 404 `not_found`: no such order of the merchant.',
    '- **500 `internal_error`** with the message `the sales order is already voided` when the order is already voided, as the core API contract fixes it (a 409 would fit better).',
  ].join('\n'),
  schema: {
    params: IdParams,
    body: Type.Object({
      action: Type.Literal('void', { description: 'Only void is supported.' }),
      void_reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    }),
    response: { 200: SalesOrderDetail, ...errorResponses(400, 401, 403, 404, 429) },
  },
  operationId: 'VoidPosSalesOrder',
  examples: {
    params: { id: DEMO_SALES_ORDER.id },
    body: { action: 'void', void_reason: 'Salah input pesanan' },
    responses: { 200: { ...DEMO_SALES_ORDER, status: 'voided', voided_at: '2026-11-25T02:50:12.000Z' } },
  },
  run: async ({ params, body }, { execute }) => {
    const data = await execute(VoidPosSalesOrderDocument, { id: params.id, reason: body.void_reason ?? null });
    return toDetail(data.voidPosSalesOrder);
  },
});
