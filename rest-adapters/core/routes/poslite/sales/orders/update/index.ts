import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { VoidPosSalesOrderDocument } from '@rest-adapters/generated/operations';
import { SalesOrderDetail, toDetail } from '../pos-sales-order';

/**
 * Only `void` (any other action is 400 bad_request). Voiding a voided order is 500 internal_error with a
 * message saying so, as core-api.md §7 documents (a 409 would be the better contract: docs/decisions/0059-voided-order-documented-500.md).
 */
export default posRoutes({
  method: 'PATCH',
  path: '/sales/orders/:id',
  summary: 'Void a sales order (stock of tracked products returns)',
  schema: {
    params: IdParams,
    body: Type.Object({
      action: Type.Literal('void', { description: 'Only void is supported.' }),
      void_reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    }),
    response: { 200: SalesOrderDetail, ...errorResponses(400, 401, 403, 404, 429) },
  },
  operationId: 'VoidPosSalesOrder',
  run: async ({ params, body }, { execute }) => {
    const data = await execute(VoidPosSalesOrderDocument, { id: params.id, reason: body.void_reason ?? null });
    return toDetail(data.voidPosSalesOrder);
  },
});
