import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosCategoriesDocument } from '@rest-adapters/generated/operations';
import { PosCategories, toPosCategory } from '../pos-category';
import { DEMO_POS_CATEGORIES } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'GET',
  path: '/catalog/categories',
  summary: 'List the merchant’s categories in display order',
  description: ['The live (not deleted) categories, inactive ones included, by `sort_order`, then name.'].join('\n'),
  schema: { response: { 200: PosCategories, ...errorResponses(400, 401, 403, 429) } },
  operationId: 'PosCategories',
  examples: { responses: { 200: { categories: DEMO_POS_CATEGORIES } } },
  run: async (_input, { execute }) => {
    const data = await execute(PosCategoriesDocument, {});
    return { categories: data.posCategories.map(toPosCategory) };
  },
});
