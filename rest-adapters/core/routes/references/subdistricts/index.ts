import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceSubdistrictsDocument } from '@rest-adapters/generated/operations';
import { toSubdistrictsResponse } from './mapper';
import { SubdistrictsQuery, SubdistrictsResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/subdistricts',
  summary: 'List the villages (subdistricts) of a district',
  tags: ['core: reference data'],
  schema: { querystring: SubdistrictsQuery, response: { 200: SubdistrictsResponse, ...errorResponses(400) } },
  operationId: 'ReferenceSubdistricts',
  examples: {
    query: { district_id: 317101 },
    responses: {
      200: {
        items: [
          { id: 3171011001, code: '31.71.01.1001', name: 'Gambir', type: 'Kelurahan', lat: -6.1766, lng: 106.822 },
          { id: 3171011002, code: '31.71.01.1002', name: 'Cideng', type: 'Kelurahan', lat: null, lng: null },
        ],
      },
    },
  },
  cache: 'public',
  run: async ({ query }, { execute }) => {
    return toSubdistrictsResponse(await execute(ReferenceSubdistrictsDocument, { districtId: query.district_id }));
  },
});
