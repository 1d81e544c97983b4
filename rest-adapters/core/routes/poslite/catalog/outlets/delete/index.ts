import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { DeletePosOutletDocument } from '@rest-adapters/generated/operations';
import { IdParams } from '../pos-outlet';
import { DEMO } from '@lib/domain/demo/demo-ids';

export default posRoutes({
  method: 'DELETE',
  path: '/catalog/outlets/:id',
  summary: 'Soft-delete an outlet',
  description: [
    '204 without a body; the outlet’s `code` becomes free, its NMID does not. 404 `not_found` for an outlet that is not a live one of the merchant.',
  ].join('\n'),
  schema: { params: IdParams, response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'DeletePosOutlet',
  examples: { params: { id: DEMO.outlets[1].id } },
  status: 204,
  run: async ({ params }, { execute }) => {
    await execute(DeletePosOutletDocument, { id: params.id });
    return null;
  },
});
