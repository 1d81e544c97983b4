import { errorResponses } from '@lib/rest/error-body';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosTillCloseDocument } from '@rest-adapters/generated/operations';
import { TILL_CLOSE_RULES, TillClose, toTillClose } from '../till-close';
import { DEMO_TILL_CLOSE } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'GET',
  path: '/till/closes/:id',
  summary: 'A till close',
  description: [
    '404 `not_found` for another merchant’s or an unknown close; 403 for a member whose outlets do not include its outlet.',
    TILL_CLOSE_RULES,
  ].join('\n\n'),
  schema: { params: IdParams, response: { 200: TillClose, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'PosTillClose',
  examples: { params: { id: DEMO_TILL_CLOSE.id }, responses: { 200: DEMO_TILL_CLOSE } },
  run: async ({ params }, { execute }) => toTillClose((await execute(PosTillCloseDocument, { id: params.id })).posTillClose),
});
