import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { PosCategory, type PosCategoryData, toPosCategory } from '../pos-category';

export default posRoutes({
  method: 'GET',
  path: '/catalog/categories/:id',
  summary: 'A category of the merchant (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: PosCategory, ...errorResponses(400, 401, 403, 404, 429) } },
  operation: loadOperation(__dirname),
  variables: ({ params }) => ({ id: params.id }),
  map: (data: { posCategory: PosCategoryData }) => toPosCategory(data.posCategory),
});
