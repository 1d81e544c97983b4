import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { PosCategoryDocument } from '@rest-adapters/generated/operations';
import { PosCategory, toPosCategory } from '../pos-category';
import { DEMO_POS_CATEGORY } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'GET',
  path: '/catalog/categories/:id',
  summary: 'A category of the merchant (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: PosCategory, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'PosCategory',
  examples: { params: { id: DEMO_POS_CATEGORY.id }, responses: { 200: DEMO_POS_CATEGORY } },
  run: async ({ params }, { execute }) => {
    const data = await execute(PosCategoryDocument, { id: params.id });
    return toPosCategory(data.posCategory);
  },
});
