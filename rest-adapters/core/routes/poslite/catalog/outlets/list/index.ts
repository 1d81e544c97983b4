import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosOutletsDocument } from '@rest-adapters/generated/operations';
import { PosOutlet, toPosOutlet } from '../pos-outlet';
import { DEMO_POS_OUTLETS } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'GET',
  path: '/catalog/outlets',
  summary: 'List the merchant’s outlets',
  description: [
    'The live (not deleted) outlets, the default outlet first, then by `code`; on the app surface, a member bound to outlets sees only those.',
  ].join('\n'),
  schema: { response: { 200: Type.Object({ outlets: Type.Array(PosOutlet) }), ...errorResponses(400, 401, 403, 429) } },
  operationId: 'PosOutlets',
  examples: { responses: { 200: { outlets: DEMO_POS_OUTLETS } } },
  run: async (_input, { execute }) => {
    const data = await execute(PosOutletsDocument, {});
    return { outlets: data.posOutlets.map(toPosOutlet) };
  },
});
