import { Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosCategoryDefaultsDocument, type PosCategoryDefaultsQuery } from '@rest-adapters/generated/operations';

const FALLBACK_SET = 'OTHER';

/**
 * One operation: the business types (merchant reference data) and the catalog's curated sets per business-type
 * category; the type's category picks the set (OTHER for an unknown name). Reference data that fails to load or
 * holds no business types is 503 reference_db_unavailable (core-api.md §7).
 */
export default posRoutes({
  method: 'GET',
  path: '/catalog/categories/defaults',
  summary: 'Suggested starting categories for a business type',
  description: [
    'The curated starting categories of the business type’s category (FOOD_BEVERAGE, RETAIL_GROCERY, FASHION, SERVICES, HEALTH_BEAUTY, EDUCATION, TRANSPORT_AUTOMOTIVE, AGRICULTURE_FISHERY, DIGITAL_CREATIVE, OTHER).',
    '',
    '- `business_type_name` is matched, trimmed and case-insensitively, against the active business types that accept QRIS (`/references/business-types`); an unknown name gets the OTHER list.',
    '- 503 `reference_db_unavailable` (with `retry_after_secs`) when the reference data cannot be read or holds no business types.',
  ].join('\n'),
  schema: {
    querystring: Type.Object({ business_type_name: Type.String({ minLength: 1, maxLength: 200 }) }),
    response: {
      200: Type.Object({
        business_type_name: Type.String(),
        categories: Type.Array(Type.Object({ name: Type.String(), icon_name: Type.String(), sort_order: Type.Integer() })),
      }),
      ...errorResponses(400, 401, 403, 429),
    },
  },
  operationId: 'PosCategoryDefaults',
  examples: {
    query: { business_type_name: 'Kedai Kopi' },
    responses: {
      200: {
        business_type_name: 'Kedai Kopi',
        categories: [
          { name: 'Makanan', icon_name: 'restaurant', sort_order: 1 },
          { name: 'Minuman', icon_name: 'local_drink', sort_order: 2 },
          { name: 'Kopi', icon_name: 'coffee', sort_order: 3 },
          { name: 'Camilan', icon_name: 'cookie', sort_order: 4 },
          { name: 'Paket Hemat', icon_name: 'lunch_dining', sort_order: 5 },
        ],
      },
    },
  },
  run: async ({ query }, { execute }) => {
    let data: PosCategoryDefaultsQuery;
    try {
      data = await execute(PosCategoryDefaultsDocument, {});
    } catch (error) {
      if (error instanceof HttpError && error.status >= 500) throw referenceUnavailable();
      throw error;
    }
    if (data.businessTypes.length === 0) throw referenceUnavailable();
    const name = query.business_type_name.trim().toLowerCase();
    const code = data.businessTypes.find((t) => t.name.toLowerCase() === name)?.category.code ?? FALLBACK_SET;
    const set =
      data.posDefaultCategorySets.find((s) => s.categoryCode === code) ??
      data.posDefaultCategorySets.find((s) => s.categoryCode === FALLBACK_SET);
    return {
      business_type_name: query.business_type_name,
      categories: (set?.categories ?? []).map((c) => ({ name: c.name, icon_name: c.iconName, sort_order: c.sortOrder })),
    };
  },
});

function referenceUnavailable(): HttpError {
  return new HttpError(503, 'reference_db_unavailable', 'reference data is not available', 5);
}
