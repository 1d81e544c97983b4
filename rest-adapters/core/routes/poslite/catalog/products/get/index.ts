import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { PosProductDocument } from '@rest-adapters/generated/operations';
import { PosProduct, toPosProduct } from '../pos-product';
import { DEMO_POS_PRODUCT } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'GET',
  path: '/catalog/products/:id',
  summary: 'A product of the merchant with its barcode (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: PosProduct, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'PosProduct',
  examples: { params: { id: DEMO_POS_PRODUCT.id }, responses: { 200: DEMO_POS_PRODUCT } },
  run: async ({ params }, { execute }) => {
    const data = await execute(PosProductDocument, { id: params.id });
    return toPosProduct(data.posProduct);
  },
});
