import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceSubdistrictsDocument } from '@rest-adapters/generated/operations';
import { toSubdistrictsResponse } from './mapper';
import { SubdistrictsQuery, SubdistrictsResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/subdistricts',
  summary: 'List the villages (subdistricts) of a district',
  tags: ['core: reference data'],
  schema: { querystring: SubdistrictsQuery, response: { 200: SubdistrictsResponse, ...errorResponses(400) } },
  operationId: 'ReferenceSubdistricts',
  cache: 'public',
  run: async ({ query }, { execute }) => {
    return toSubdistrictsResponse(await execute(ReferenceSubdistrictsDocument, { districtId: query.district_id }));
  },
});
