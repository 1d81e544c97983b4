import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { DeletePosCategoryDocument } from '@rest-adapters/generated/operations';
import { DEMO_POS_CATEGORY } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'DELETE',
  path: '/catalog/categories/:id',
  summary: 'Soft-delete a category',
  description: ['204 without a body; 404 `not_found` for a category that is not a live one of the merchant.'].join('\n'),
  schema: { params: IdParams, response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'DeletePosCategory',
  examples: { params: { id: DEMO_POS_CATEGORY.id } },
  status: 204,
  run: async ({ params }, { execute }) => {
    await execute(DeletePosCategoryDocument, { id: params.id });
    return null;
  },
});
