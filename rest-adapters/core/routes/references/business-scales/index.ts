import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { toBusinessScalesResponse } from './mapper';
import { BusinessScalesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/business-scales',
  summary: 'List the business scales (PP 7/2021)',
  tags: ['core: reference data'],
  schema: { response: { 200: BusinessScalesResponse, ...errorResponses() } },
  operation: loadOperation(__dirname),
  cacheable: true,
  map: toBusinessScalesResponse,
});
