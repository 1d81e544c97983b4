import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { PosCategoryDocument } from '@rest-adapters/generated/operations';
import { PosCategory, toPosCategory } from '../pos-category';

export default posRoutes({
  method: 'GET',
  path: '/catalog/categories/:id',
  summary: 'A category of the merchant (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: PosCategory, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'PosCategory',
  run: async ({ params }, { execute }) => {
    const data = await execute(PosCategoryDocument, { id: params.id });
    return toPosCategory(data.posCategory);
  },
});
