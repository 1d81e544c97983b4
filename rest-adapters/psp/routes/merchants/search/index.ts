import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import type { MerchantData } from '../psp-merchant.mapper';
import { criteriaOf, matches, toSearchResponse } from './mapper';
import { SearchQuery, SearchResponse } from './schema';

const byCriteria = loadOperation(__dirname);
/** An NMID belongs to the outlet subgraph, so that search starts there (one operation either way). */
const byNmid = loadOperation(__dirname, 'by-nmid.graphql');

export default defineRoute({
  method: 'GET',
  url: '/api/psp/v1/merchants/search',
  summary: "Find the calling bank's merchants by phone, email, NPWP or NMID",
  description: 'All given criteria must match. At least one is required.',
  tags: ['psp: lookups'],
  schema: { querystring: SearchQuery, response: { 200: SearchResponse, ...errorResponses(400, 401, 429) } },
  operation: byCriteria,
  authenticate: bankSignature('lookup'),
  rateLimit: { max: 120, windowSecs: 60 },
  handle: async ({ query }, runtime) => {
    const criteria = criteriaOf(query);
    if (criteria.nmid) {
      const data = await runtime.run<{ outletByNmid: { merchant: MerchantData | null } | null }>(byNmid, { nmid: criteria.nmid });
      const merchant = data.outletByNmid?.merchant;
      return toSearchResponse(merchant && matches(merchant, criteria) ? [merchant] : []);
    }
    const data = await runtime.run<{ bankMerchantSearch: MerchantData[] }>(byCriteria, {
      phone: criteria.phone,
      email: criteria.email,
      npwp: criteria.npwp,
    });
    return toSearchResponse(data.bankMerchantSearch);
  },
});
