import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { UpdatePosProductDocument } from '@rest-adapters/generated/operations';
import { PosProduct, ProductFields, productInput, toPosProduct } from '../pos-product';
import { DEMO_POS_PRODUCT } from '@rest-adapters/core/examples';

const Body = Type.Object({
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  ...ProductFields,
  category_id: Type.Optional(
    Nullable(Type.Union([Type.String({ format: 'uuid' }), Type.Literal('')], { description: '"" leaves it uncategorised.' })),
  ),
  barcode: Type.Optional(
    Nullable(Type.String({ maxLength: 64, description: 'null: no change; "": removed; a value: set on the default variant.' })),
  ),
});

export default posRoutes({
  method: 'PATCH',
  path: '/catalog/products/:id',
  summary: 'Change a product (absent or null fields stay; 409 barcode_conflict)',
  description: [
    'The SKU and product type cannot be changed.',
    '',
    '- 409 `barcode_conflict`: a live variant of any merchant has the barcode.',
    '- `category_id` must be a live category of the merchant (otherwise 400 `bad_request`); `""` leaves the product uncategorised.',
  ].join('\n'),
  schema: { params: IdParams, body: Body, response: { 200: PosProduct, ...errorResponses(400, 401, 403, 404, 409, 429) } },
  operationId: 'UpdatePosProduct',
  examples: {
    params: { id: DEMO_POS_PRODUCT.id },
    body: { sell_price_amount: 20_000, barcode: '' },
    responses: { 200: { ...DEMO_POS_PRODUCT, sell_price_amount: 20_000, barcode: null, updated_at: '2026-11-25T03:30:00.000Z' } },
  },
  run: async ({ params, body }, { execute }) => {
    const { sku: _sku, productType: _type, ...input } = productInput(body);
    const data = await execute(UpdatePosProductDocument, { id: params.id, input });
    return toPosProduct(data.updatePosProduct);
  },
});
