import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceBusinessTypesDocument } from '@rest-adapters/generated/operations';
import { toBusinessTypesResponse } from './mapper';
import { BusinessTypesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/business-types',
  summary: 'List the business types that accept QRIS',
  tags: ['core: reference data'],
  schema: { response: { 200: BusinessTypesResponse, ...errorResponses() } },
  operationId: 'ReferenceBusinessTypes',
  cache: 'public',
  run: async (_input, { execute }) => {
    return toBusinessTypesResponse(await execute(ReferenceBusinessTypesDocument, {}));
  },
});
