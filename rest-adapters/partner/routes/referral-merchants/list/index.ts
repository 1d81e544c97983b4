import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { PartnerIdParams, partnerCodeOf, requireOwnPartner, scopedTo } from '@rest-adapters/partner/routes/partner-data';
import { PartnerReferralDefaultOutletsDocument, PartnerReferralMerchantsDocument } from '@rest-adapters/generated/operations';
import { toReferralMerchantsA, toReferralMerchantsB } from './mapper';
import { ReferralMerchantsResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B, DEMO_REFERRALS } from '@rest-adapters/partner/routes/partner.examples';

/** partner-api.md §4: merchants in the caller's scope (referral, consent, assignment), oldest grant first. */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/partners/:partner_id/referral-merchants',
  summary: "List the merchants in the calling partner's scope",
  description: [
    'Scope merchant.read. Body by the credential’s contract (A or B). Deleted merchants are not listed.',
    '',
    '- `default_outlet_id` (both contracts; the multi-outlet model): the merchant’s default outlet, which integrators store next to `merchant_id`; transactions carry `outlet_id` and summaries `outlet_breakdown`. The outlet endpoints (enabled per credential) describe the outlets.',
  ].join('\n'),
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
              default_outlet_id: m.defaultOutletId,
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
              default_outlet_id: m.defaultOutletId,
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
    // The default outlets are read as the partner narrowed to the merchants just listed, which the outlet subgraph requires.
    const defaults = new Map<string, string>();
    if (partnerMerchants.length > 0) {
      const merchantIds = partnerMerchants.map((m) => m.merchantId);
      const outlets = await ctx.execute(
        PartnerReferralDefaultOutletsDocument,
        { merchantIds },
        { acting: scopedTo(principal, merchantIds) },
      );
      for (const m of outlets.partnerMerchants) if (m.merchant.defaultOutlet) defaults.set(m.merchantId, m.merchant.defaultOutlet.id);
    }
    return principal.contract === 'A'
      ? toReferralMerchantsA(principal.partnerId, partnerCodeOf(ctx.request), partnerMerchants, defaults)
      : toReferralMerchantsB(principal.partnerId, partnerMerchants, defaults);
  },
});
