import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toProvincesResponse } from './mapper';
import { ProvincesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/provinces',
  summary: 'List provinces',
  tags: ['core: reference data'],
  schema: { response: { 200: ProvincesResponse, ...errorResponses() } },
  operation: loadOperation(__dirname),
  cacheable: true,
  map: toProvincesResponse,
});
