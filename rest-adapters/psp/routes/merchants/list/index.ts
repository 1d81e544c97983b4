import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { toListResponse } from './mapper';
import { ListQuery, ListResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/api/psp/v1/merchants',
  summary: "List the calling bank's active merchants",
  description: 'Keyset-paged by creation order: a page never repeats or skips a merchant while others are added or updated.',
  tags: ['psp: lookups'],
  schema: { querystring: ListQuery, response: { 200: ListResponse, ...errorResponses(400, 401, 429) } },
  operation: loadOperation(__dirname),
  authenticate: bankSignature('lookup'),
  rateLimit: { max: 60, windowSecs: 60 },
  variables: ({ query }) => ({
    first: query.limit,
    after: query.cursor ?? null,
    updatedSince: query.updated_since ?? null,
    categoryCode: query.category_code ?? null,
    includeOutlets: query.include_outlets,
  }),
  map: (data, { query }) => toListResponse(data as never, query),
});
