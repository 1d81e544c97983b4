import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { PosProduct, type PosProductData, toPosProduct } from '../pos-product';

export default posRoutes({
  method: 'GET',
  path: '/catalog/products/:id',
  summary: 'A product of the merchant with its barcode (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: PosProduct, ...errorResponses(400, 401, 403, 404, 429) } },
  operation: loadOperation(__dirname),
  variables: ({ params }) => ({ id: params.id }),
  map: (data: { posProduct: PosProductData }) => toPosProduct(data.posProduct),
});
