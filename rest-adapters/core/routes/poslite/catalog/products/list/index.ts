import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosProductsDocument } from '@rest-adapters/generated/operations';
import { PosProduct, toPosProduct } from '../pos-product';
import { DEMO_POS_PRODUCT } from '@rest-adapters/core/examples';

const Query = Type.Object({
  category_id: Type.Optional(Type.String({ format: 'uuid' })),
  q: Type.Optional(Type.String({ maxLength: 100, description: 'Substring of name or SKU, case-insensitive; % and _ match themselves.' })),
  active: Type.Boolean({ default: true, description: 'true: active products only (default); false: inactive ones only.' }),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});

export default posRoutes({
  method: 'GET',
  path: '/catalog/products',
  summary: 'List products (with barcode) in display order',
  description: [
    'Live (not deleted) products by `sort_order`, then name. Pages by `limit` (default 50, at most 200) and `offset`.',
    '',
    '- `q`: a case-insensitive substring of the name or the SKU; `%`, `_` and `\\` match themselves.',
    '- `active`: active products (default) or inactive ones.',
  ].join('\n'),
  schema: {
    querystring: Query,
    response: { 200: Type.Object({ products: Type.Array(PosProduct) }), ...errorResponses(400, 401, 403, 429) },
  },
  operationId: 'PosProducts',
  examples: {
    query: { category_id: DEMO_POS_PRODUCT.category_id!, q: 'kopi', limit: 50, offset: 0 },
    responses: { 200: { products: [DEMO_POS_PRODUCT] } },
  },
  run: async ({ query }, { execute }) => {
    const data = await execute(PosProductsDocument, {
      categoryId: query.category_id,
      q: query.q,
      active: query.active,
      limit: query.limit,
      offset: query.offset,
    });
    return { products: data.posProducts.map(toPosProduct) };
  },
});
