import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosOutlet, type PosOutletData, toPosOutlet } from '../pos-outlet';

export default posRoutes({
  method: 'GET',
  path: '/catalog/outlets',
  summary: 'List the merchant’s outlets',
  schema: { response: { 200: Type.Object({ outlets: Type.Array(PosOutlet) }), ...errorResponses(400, 401, 403, 429) } },
  operation: loadOperation(__dirname),
  map: (data: { posOutlets: PosOutletData[] }) => ({ outlets: data.posOutlets.map(toPosOutlet) }),
});
