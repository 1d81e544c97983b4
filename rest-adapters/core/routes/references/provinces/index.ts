import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceProvincesDocument } from '@rest-adapters/generated/operations';
import { toProvincesResponse } from './mapper';
import { ProvincesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/provinces',
  summary: 'List provinces',
  tags: ['core: reference data'],
  schema: { response: { 200: ProvincesResponse, ...errorResponses() } },
  operationId: 'ReferenceProvinces',
  cache: 'public',
  run: async (_input, { execute }) => {
    return toProvincesResponse(await execute(ReferenceProvincesDocument, {}));
  },
});
