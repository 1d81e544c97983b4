import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireOutletsEnabled, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { PartnerMerchantOutletDocument } from '@rest-adapters/generated/operations';
import { OutletParams, PartnerOutlet, loadScopedMerchant, outletOf, toPartnerOutlet } from '../partner-outlet';

/** partner-api.md §4 outlet endpoints: one live outlet of the merchant (404 for any other id). */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/outlets/:outlet_id',
  summary: 'One outlet of a merchant in the calling partner’s scope',
  description:
    'Scope merchant.read; enabled per credential by an operator (otherwise 403). Same object in both contracts; times follow the contract.',
  tags: ['partner: outlets'],
  schema: { params: OutletParams, response: { 200: PartnerOutlet, ...errorResponses(401, 403, 404, 429) } },
  operationId: 'PartnerMerchantOutlet',
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params }, ctx) => {
    requireOutletsEnabled(ctx.request);
    const principal = requireScope(ctx.principal, 'merchant.read');
    const merchant = await loadScopedMerchant(ctx, principal, PartnerMerchantOutletDocument, params.merchant_id, {});
    return toPartnerOutlet(principal, merchant.id, outletOf(merchant.outlets, params.outlet_id));
  },
});
