import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams, PosOutlet, type PosOutletData, toPosOutlet } from '../pos-outlet';

export default posRoutes({
  method: 'GET',
  path: '/catalog/outlets/:id',
  summary: 'An outlet of the merchant (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: PosOutlet, ...errorResponses(400, 401, 403, 404, 429) } },
  operation: loadOperation(__dirname),
  variables: ({ params }) => ({ id: params.id }),
  map: (data: { posOutlet: PosOutletData }) => toPosOutlet(data.posOutlet),
});
