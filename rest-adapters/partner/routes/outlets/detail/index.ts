import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireOutletsEnabled, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { type OutletData, OutletParams, PartnerOutlet, loadScopedMerchant, outletOf, toPartnerOutlet } from '../partner-outlet';

const operation = loadOperation(__dirname);

/** partner-api.md §4 outlet endpoints: one live outlet of the merchant (404 for any other id). */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/outlets/:outlet_id',
  summary: 'One outlet of a merchant in the calling partner’s scope',
  description:
    'Scope merchant.read; enabled per credential by an operator (otherwise 403). Same object in both contracts; times follow the contract.',
  tags: ['partner: outlets'],
  schema: { params: OutletParams, response: { 200: PartnerOutlet, ...errorResponses(401, 403, 404, 429) } },
  operation,
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  handle: async ({ params }, runtime, req) => {
    requireOutletsEnabled(req);
    const principal = requireScope(req.acting, 'merchant.read');
    const merchant = await loadScopedMerchant<{ id: string; outlets: OutletData[] }>(runtime, principal, operation, params.merchant_id);
    return toPartnerOutlet(principal, merchant.id, outletOf(merchant.outlets, params.outlet_id));
  },
});
