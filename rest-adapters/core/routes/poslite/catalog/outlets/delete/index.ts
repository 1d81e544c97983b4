import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '../pos-outlet';

export default posRoutes({
  method: 'DELETE',
  path: '/catalog/outlets/:id',
  summary: 'Soft-delete an outlet',
  schema: { params: IdParams, response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(400, 401, 403, 404, 429) } },
  operation: loadOperation(__dirname),
  status: 204,
  variables: ({ params }) => ({ id: params.id }),
});
