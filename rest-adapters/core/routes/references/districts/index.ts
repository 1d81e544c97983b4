import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toDistrictsResponse } from './mapper';
import { DistrictsQuery, DistrictsResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/districts',
  summary: 'List the districts of a city',
  tags: ['core: reference data'],
  schema: { querystring: DistrictsQuery, response: { 200: DistrictsResponse, ...errorResponses(400) } },
  operation: loadOperation(__dirname),
  cacheable: true,
  variables: ({ query }) => ({ cityId: query.city_id }),
  map: toDistrictsResponse,
});
