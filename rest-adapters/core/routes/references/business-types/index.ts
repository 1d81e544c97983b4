import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceBusinessTypesDocument } from '@rest-adapters/generated/operations';
import { toBusinessTypesResponse } from './mapper';
import { BusinessTypesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/business-types',
  summary: 'List the business types that accept QRIS',
  tags: ['core: reference data'],
  schema: { response: { 200: BusinessTypesResponse, ...errorResponses() } },
  operationId: 'ReferenceBusinessTypes',
  examples: {
    responses: {
      200: {
        items: [
          {
            id: 1,
            code: 'WARUNG_MAKAN',
            name: 'Warung Makan',
            category_id: 1,
            category_code: 'FOOD_BEVERAGE',
            category_name: 'Makanan & Minuman',
            benchmark_transactions: 900,
            benchmark_ticket_size: 25_000,
            base_operational_cost_rate: 0.65,
          },
          {
            id: 2,
            code: 'KEDAI_KOPI',
            name: 'Kedai Kopi',
            category_id: 1,
            category_code: 'FOOD_BEVERAGE',
            category_name: 'Makanan & Minuman',
            benchmark_transactions: 700,
            benchmark_ticket_size: 28_000,
            base_operational_cost_rate: 0.6,
          },
        ],
      },
    },
  },
  cache: 'public',
  run: async (_input, { execute }) => {
    return toBusinessTypesResponse(await execute(ReferenceBusinessTypesDocument, {}));
  },
});
