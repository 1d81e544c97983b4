import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceBusinessScalesDocument } from '@rest-adapters/generated/operations';
import { toBusinessScalesResponse } from './mapper';
import { BusinessScalesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/business-scales',
  summary: 'List the business scales (PP 7/2021)',
  tags: ['core: reference data'],
  schema: { response: { 200: BusinessScalesResponse, ...errorResponses() } },
  operationId: 'ReferenceBusinessScales',
  cache: 'public',
  run: async (_input, { execute }) => {
    return toBusinessScalesResponse(await execute(ReferenceBusinessScalesDocument, {}));
  },
});
