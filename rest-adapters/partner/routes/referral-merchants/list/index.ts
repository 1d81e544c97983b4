import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { PartnerIdParams, partnerCodeOf, requireOwnPartner } from '@rest-adapters/partner/routes/partner-data';
import { PartnerReferralMerchantsDocument } from '@rest-adapters/generated/operations';
import { toReferralMerchantsA, toReferralMerchantsB } from './mapper';
import { ReferralMerchantsResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B, DEMO_REFERRALS } from '@rest-adapters/partner/routes/partner.examples';

/** partner-api.md §4: merchants in the caller's scope (referral, consent, assignment), oldest grant first. */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/partners/:partner_id/referral-merchants',
  summary: "List the merchants in the calling partner's scope",
  description: 'Scope merchant.read. Body by the credential’s contract (A or B). Deleted merchants are not listed.',
  tags: ['partner: merchants'],
  schema: { params: PartnerIdParams, response: { 200: ReferralMerchantsResponse, ...errorResponses(400, 401, 403, 429) } },
  operationId: 'PartnerReferralMerchants',
  examples: {
    params: { partner_id: DEMO.partner.id },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            partner_id: DEMO.partner.id,
            partner_code: DEMO.partner.code,
            items: DEMO_REFERRALS.map((m) => ({
              merchant_id: m.id,
              merchant_code: m.code,
              merchant_name: m.name,
              merchant_status: 'active' as const,
              referral_code: DEMO.partner.referralCode,
              access_type: 'referral' as const,
              granted_at: '2026-11-02T09:00:00+07:00',
            })),
          },
        },
        contract_b: {
          summary: CONTRACT_B,
          value: {
            partner_id: DEMO.partner.id,
            items: DEMO_REFERRALS.map((m) => ({
              merchant_id: m.id,
              merchant_code: m.code,
              merchant_name: m.name,
              status: 'active' as const,
              referral_partner_id: DEMO.partner.id,
            })),
            count: DEMO_REFERRALS.length,
          },
        },
      },
    },
  },
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params }, ctx) => {
    const principal = requireScope(ctx.principal, 'merchant.read');
    requireOwnPartner(principal, params.partner_id);
    const { partnerMerchants } = await ctx.execute(PartnerReferralMerchantsDocument, {});
    return principal.contract === 'A'
      ? toReferralMerchantsA(principal.partnerId, partnerCodeOf(ctx.request), partnerMerchants)
      : toReferralMerchantsB(principal.partnerId, partnerMerchants);
  },
});
