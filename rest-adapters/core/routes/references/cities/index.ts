import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toCitiesResponse } from './mapper';
import { CitiesQuery, CitiesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/cities',
  summary: 'List the regencies and cities of a province',
  tags: ['core: reference data'],
  schema: { querystring: CitiesQuery, response: { 200: CitiesResponse, ...errorResponses(400) } },
  operation: loadOperation(__dirname),
  cacheable: true,
  variables: ({ query }) => ({ provinceId: query.province_id }),
  map: toCitiesResponse,
});
