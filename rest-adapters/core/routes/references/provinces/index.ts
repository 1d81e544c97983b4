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
  examples: {
    responses: {
      200: {
        items: [
          { id: 31, code: '31', name: 'Daerah Khusus Ibukota Jakarta' },
          { id: 32, code: '32', name: 'Jawa Barat' },
        ],
      },
    },
  },
  cache: 'public',
  run: async (_input, { execute }) => {
    return toProvincesResponse(await execute(ReferenceProvincesDocument, {}));
  },
});
