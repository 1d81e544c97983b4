import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceDistrictsDocument } from '@rest-adapters/generated/operations';
import { toDistrictsResponse } from './mapper';
import { DistrictsQuery, DistrictsResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/districts',
  summary: 'List the districts of a city',
  tags: ['core: reference data'],
  schema: { querystring: DistrictsQuery, response: { 200: DistrictsResponse, ...errorResponses(400) } },
  operationId: 'ReferenceDistricts',
  examples: {
    query: { city_id: 3171 },
    responses: {
      200: {
        items: [
          { id: 317101, code: '31.71.01', name: 'Gambir' },
          { id: 317102, code: '31.71.02', name: 'Sawah Besar' },
        ],
      },
    },
  },
  cache: 'public',
  run: async ({ query }, { execute }) => {
    return toDistrictsResponse(await execute(ReferenceDistrictsDocument, { cityId: query.city_id }));
  },
});
