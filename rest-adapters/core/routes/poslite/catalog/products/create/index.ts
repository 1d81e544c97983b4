import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosProduct, type PosProductData, ProductFields, productInput, toPosProduct } from '../pos-product';

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
  schema: { body: Body, response: { 201: PosProduct, ...errorResponses(400, 401, 403, 409, 429) } },
  operation: loadOperation(__dirname),
  status: 201,
  variables: ({ body }) => ({ input: productInput(body) }),
  map: (data: { createPosProduct: PosProductData }) => toPosProduct(data.createPosProduct),
});
