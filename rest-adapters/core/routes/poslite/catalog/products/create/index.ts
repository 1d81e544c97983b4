import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { CreatePosProductDocument } from '@rest-adapters/generated/operations';
import { PosProduct, ProductFields, productInput, toPosProduct } from '../pos-product';
import { DEMO_POS_PRODUCT } from '@rest-adapters/core/examples';

const Body = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  sku: Type.String({ minLength: 1, maxLength: 64 }),
  product_type: Type.Optional(Nullable(Type.Union([Type.Literal('good'), Type.Literal('service')]))),
  ...ProductFields,
});

export default posRoutes({
  method: 'POST',
  path: '/catalog/products',
  summary: 'Create a product and its default variant (409 sku_conflict, barcode_conflict)',
  description: [
    'Creates the product with one default variant, which carries the `barcode`.',
    '',
    '- 409 `sku_conflict`: a live product of the merchant has the SKU (a deleted product frees it).',
    '- 409 `barcode_conflict`: a live variant of any merchant has the barcode: a barcode identifies one product across the platform.',
    '- `category_id` must be a live category of the merchant (otherwise 400 `bad_request`).',
  ].join('\n'),
  schema: { body: Body, response: { 201: PosProduct, ...errorResponses(400, 401, 403, 409, 429) } },
  operationId: 'CreatePosProduct',
  examples: {
    body: {
      name: DEMO_POS_PRODUCT.name,
      sku: DEMO_POS_PRODUCT.sku,
      product_type: 'good',
      category_id: DEMO_POS_PRODUCT.category_id,
      sell_price_amount: DEMO_POS_PRODUCT.sell_price_amount,
      cost_price_amount: DEMO_POS_PRODUCT.cost_price_amount,
      unit_label: DEMO_POS_PRODUCT.unit_label,
      description: DEMO_POS_PRODUCT.description,
      tax_rate_bps: 0,
      track_stock: false,
      sort_order: 1,
      barcode: DEMO_POS_PRODUCT.barcode,
    },
    responses: { 201: { ...DEMO_POS_PRODUCT, updated_at: DEMO_POS_PRODUCT.created_at } },
  },
  status: 201,
  run: async ({ body }, { execute }) => {
    const data = await execute(CreatePosProductDocument, { input: productInput(body) });
    return toPosProduct(data.createPosProduct);
  },
});
