import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferencePostalCodesDocument } from '@rest-adapters/generated/operations';
import { toPostalCodesResponse } from './mapper';
import { PostalCodesQuery, PostalCodesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/postal-codes',
  summary: 'List the postal codes of a village',
  tags: ['core: reference data'],
  schema: { querystring: PostalCodesQuery, response: { 200: PostalCodesResponse, ...errorResponses(400) } },
  operationId: 'ReferencePostalCodes',
  examples: {
    query: { subdistrict_id: 3171011001 },
    responses: { 200: { items: [{ id: 1, code: '10110', name: 'Gambir', label: '10110 - Gambir' }] } },
  },
  cache: 'public',
  run: async ({ query }, { execute }) => {
    return toPostalCodesResponse(await execute(ReferencePostalCodesDocument, { subdistrictId: query.subdistrict_id }));
  },
});
