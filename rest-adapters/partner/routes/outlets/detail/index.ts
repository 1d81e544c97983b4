import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireOutletsEnabled, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { PartnerMerchantOutletDocument } from '@rest-adapters/generated/operations';
import { OutletParams, PartnerOutlet, loadScopedMerchant, outletOf, toPartnerOutlet } from '../partner-outlet';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B, DEMO_PARTNER_OUTLETS_A, DEMO_PARTNER_OUTLETS_B } from '@rest-adapters/partner/routes/partner.examples';

/** partner-api.md §4 outlet endpoints: one live outlet of the merchant (404 for any other id). */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/outlets/:outlet_id',
  summary: 'One outlet of a merchant in the calling partner’s scope',
  description: [
    'Scope `merchant.read`. The outlet endpoints are enabled per credential by an operator (`outlets_enabled`); that switch is checked first, so without it every outlet endpoint answers 403 `forbidden`.',
    '',
    '- The same outlet object in both contracts; times: contract A in Asia/Jakarta (+07:00), B in UTC.',
    '- 403 `forbidden`: outlet endpoints not enabled, scope missing, or the merchant is outside the partner’s scope.',
    '- 404 `not_found`: any `outlet_id` that is not a live outlet of this merchant (another merchant’s, deleted, unknown or malformed): the merchant is in scope, the outlet is not there.',
  ].join('\n'),
  tags: ['partner: outlets'],
  schema: { params: OutletParams, response: { 200: PartnerOutlet, ...errorResponses(401, 403, 404, 429) } },
  operationId: 'PartnerMerchantOutlet',
  examples: {
    params: { merchant_id: DEMO.merchantId, outlet_id: DEMO.outlets[0].id },
    namedResponses: {
      200: {
        contract_a: { summary: CONTRACT_A, value: DEMO_PARTNER_OUTLETS_A[0] },
        contract_b: { summary: CONTRACT_B, value: DEMO_PARTNER_OUTLETS_B[0] },
      },
    },
  },
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params }, ctx) => {
    requireOutletsEnabled(ctx.request);
    const principal = requireScope(ctx.principal, 'merchant.read');
    const merchant = await loadScopedMerchant(ctx, principal, PartnerMerchantOutletDocument, params.merchant_id, {});
    return toPartnerOutlet(merchant.id, outletOf(merchant.outlets, params.outlet_id));
  },
});
