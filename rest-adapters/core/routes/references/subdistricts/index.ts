import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toSubdistrictsResponse } from './mapper';
import { SubdistrictsQuery, SubdistrictsResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/subdistricts',
  summary: 'List the villages (subdistricts) of a district',
  tags: ['core: reference data'],
  schema: { querystring: SubdistrictsQuery, response: { 200: SubdistrictsResponse, ...errorResponses(400) } },
  operation: loadOperation(__dirname),
  cacheable: true,
  variables: ({ query }) => ({ districtId: query.district_id }),
  map: toSubdistrictsResponse,
});
