import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosOutletDocument } from '@rest-adapters/generated/operations';
import { IdParams, PosOutlet, toPosOutlet } from '../pos-outlet';
import { DEMO_POS_OUTLET } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'GET',
  path: '/catalog/outlets/:id',
  summary: 'An outlet of the merchant (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: PosOutlet, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'PosOutlet',
  examples: { params: { id: DEMO_POS_OUTLET.id }, responses: { 200: DEMO_POS_OUTLET } },
  run: async ({ params }, { execute }) => {
    const data = await execute(PosOutletDocument, { id: params.id });
    return toPosOutlet(data.posOutlet);
  },
});
