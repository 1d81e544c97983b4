import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { PspMerchantSearchByNmidDocument, PspMerchantSearchDocument } from '@rest-adapters/generated/operations';
import { criteriaOf, matches, toSearchResponse } from './mapper';
import { SearchQuery, SearchResponse } from './schema';
import { DEMO_PSP_MERCHANT } from '../psp-merchant.examples';

export default defineRoute({
  method: 'GET',
  url: '/api/psp/v1/merchants/search',
  summary: "Find the calling bank's merchants by phone, email, NPWP or NMID",
  description: 'All given criteria must match. At least one is required.',
  tags: ['psp: lookups'],
  schema: { querystring: SearchQuery, response: { 200: SearchResponse, ...errorResponses(400, 401, 429) } },
  operationId: 'PspMerchantSearch',
  examples: {
    query: { phone: '081234567890' },
    responses: { 200: { items: [DEMO_PSP_MERCHANT], meta: { returned_count: 1 } } },
  },
  authenticate: bankSignature('lookup'),
  rateLimit: { max: 120, windowSecs: 60 },
  run: async ({ query }, { execute }) => {
    const criteria = criteriaOf(query);
    // An NMID belongs to the outlet subgraph, so that search starts there (one operation either way).
    if (criteria.nmid) {
      const data = await execute(PspMerchantSearchByNmidDocument, { nmid: criteria.nmid });
      const merchant = data.outletByNmid?.merchant;
      return toSearchResponse(merchant && matches(merchant, criteria) ? [merchant] : []);
    }
    const data = await execute(PspMerchantSearchDocument, {
      phone: criteria.phone,
      email: criteria.email,
      npwp: criteria.npwp,
    });
    return toSearchResponse(data.bankMerchantSearch);
  },
});
