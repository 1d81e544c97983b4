import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosCategories, type PosCategoryData, toPosCategory } from '../pos-category';

export default posRoutes({
  method: 'GET',
  path: '/catalog/categories',
  summary: 'List the merchant’s categories in display order',
  schema: { response: { 200: PosCategories, ...errorResponses(400, 401, 403, 429) } },
  operation: loadOperation(__dirname),
  map: (data: { posCategories: PosCategoryData[] }) => ({ categories: data.posCategories.map(toPosCategory) }),
});
