import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import {
  PartnerIdParams,
  partnerCodeOf,
  requireOwnPartner,
  scopedTo,
  toPartnerMerchantStatus,
} from '@rest-adapters/partner/routes/partner-data';
import { PartnerReferralSummaryDocument, PartnerReferralTotalsDocument } from '@rest-adapters/generated/operations';
import { ReferralSummaryResponse, type ReferralSummaryA, type ReferralSummaryB } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B } from '@rest-adapters/partner/routes/partner.examples';

/**
 * partner-api.md §4: counts of the merchants in scope; Contract A adds the gross and count of their success
 * transactions (all time). The totals run with the principal narrowed to the merchants just listed, which the
 * transaction subgraph requires.
 */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/partners/:partner_id/referral-merchants/summary',
  summary: "Summarize the merchants in the calling partner's scope",
  description: 'Scope merchant.read. Body by the credential’s contract (A or B).',
  tags: ['partner: merchants'],
  schema: { params: PartnerIdParams, response: { 200: ReferralSummaryResponse, ...errorResponses(400, 401, 403, 429) } },
  operationId: 'PartnerReferralSummary',
  examples: {
    params: { partner_id: DEMO.partner.id },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            partner_id: DEMO.partner.id,
            partner_code: DEMO.partner.code,
            merchant_count: 2,
            active_count: 2,
            gross_amount: 18_475_000,
            transaction_count: 742,
          },
        },
        contract_b: { summary: CONTRACT_B, value: { partner_id: DEMO.partner.id, merchant_count: 2, active_count: 2, inactive_count: 0 } },
      },
    },
  },
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params }, ctx) => {
    const principal = requireScope(ctx.principal, 'merchant.read');
    requireOwnPartner(principal, params.partner_id);
    const { partnerMerchants } = await ctx.execute(PartnerReferralSummaryDocument, {});
    const merchantCount = partnerMerchants.length;
    const activeCount = partnerMerchants.filter((m) => toPartnerMerchantStatus(m.merchant.status) === 'active').length;
    if (principal.contract === 'B') {
      const b: ReferralSummaryB = {
        partner_id: principal.partnerId,
        merchant_count: merchantCount,
        active_count: activeCount,
        inactive_count: merchantCount - activeCount,
      };
      return b;
    }
    let grossAmount = 0;
    let transactionCount = 0;
    if (merchantCount > 0) {
      const merchantIds = partnerMerchants.map((m) => m.merchantId);
      const totals = await ctx.execute(PartnerReferralTotalsDocument, { merchantIds }, { acting: scopedTo(principal, merchantIds) });
      for (const m of totals.partnerMerchants) {
        grossAmount += m.merchant.transactionTotals.grossAmount;
        transactionCount += m.merchant.transactionTotals.count;
      }
    }
    const a: ReferralSummaryA = {
      partner_id: principal.partnerId,
      partner_code: partnerCodeOf(ctx.request),
      merchant_count: merchantCount,
      active_count: activeCount,
      gross_amount: grossAmount,
      transaction_count: transactionCount,
    };
    return a;
  },
});
