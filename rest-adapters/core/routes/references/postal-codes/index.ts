import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toPostalCodesResponse } from './mapper';
import { PostalCodesQuery, PostalCodesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/postal-codes',
  summary: 'List the postal codes of a village',
  tags: ['core: reference data'],
  schema: { querystring: PostalCodesQuery, response: { 200: PostalCodesResponse, ...errorResponses(400) } },
  operation: loadOperation(__dirname),
  cacheable: true,
  variables: ({ query }) => ({ subdistrictId: query.subdistrict_id }),
  map: toPostalCodesResponse,
});
