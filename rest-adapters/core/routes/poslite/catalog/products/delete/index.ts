import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { DeletePosProductDocument } from '@rest-adapters/generated/operations';
import { DEMO_POS_PRODUCT } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'DELETE',
  path: '/catalog/products/:id',
  summary: 'Soft-delete a product and its variants',
  description: [
    '204 without a body; the SKU and barcode become free for other products. 404 `not_found` for a product that is not a live one of the merchant.',
  ].join('\n'),
  schema: { params: IdParams, response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'DeletePosProduct',
  examples: { params: { id: DEMO_POS_PRODUCT.id } },
  status: 204,
  run: async ({ params }, { execute }) => {
    await execute(DeletePosProductDocument, { id: params.id });
    return null;
  },
});
