import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toBusinessTypesResponse } from './mapper';
import { BusinessTypesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/business-types',
  summary: 'List the business types that accept QRIS',
  tags: ['core: reference data'],
  schema: { response: { 200: BusinessTypesResponse, ...errorResponses() } },
  operation: loadOperation(__dirname),
  cacheable: true,
  map: toBusinessTypesResponse,
});
