import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceCitiesDocument } from '@rest-adapters/generated/operations';
import { toCitiesResponse } from './mapper';
import { CitiesQuery, CitiesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/cities',
  summary: 'List the regencies and cities of a province',
  tags: ['core: reference data'],
  schema: { querystring: CitiesQuery, response: { 200: CitiesResponse, ...errorResponses(400) } },
  operationId: 'ReferenceCities',
  examples: {
    query: { province_id: 31 },
    responses: {
      200: {
        items: [
          { id: 3171, code: '31.71', name: 'Jakarta Pusat', type: 'Kota Administrasi' },
          { id: 3172, code: '31.72', name: 'Jakarta Utara', type: 'Kota Administrasi' },
        ],
      },
    },
  },
  cache: 'public',
  run: async ({ query }, { execute }) => {
    return toCitiesResponse(await execute(ReferenceCitiesDocument, { provinceId: query.province_id }));
  },
});
