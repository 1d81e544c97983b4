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
import { type OutletBreakdown, ReferralSummaryResponse, type ReferralSummaryA, type ReferralSummaryB } from './schema';
import { toOutletTotals } from '@rest-adapters/partner/routes/merchants/transactions/mapper';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B } from '@rest-adapters/partner/routes/partner.examples';

/** The example's 742 transactions, per outlet of the demo merchant and Minimarket Sejahtera. */
const minimarket = DEMO.otherMerchants[1];
const EXAMPLE_BREAKDOWN = [
  { merchant_id: DEMO.merchantId, outlet_id: DEMO.outlets[0].id, gross_amount: 6_125_000, transaction_count: 245 },
  { merchant_id: DEMO.merchantId, outlet_id: DEMO.outlets[1].id, gross_amount: 2_350_000, transaction_count: 94 },
  { merchant_id: minimarket.id, outlet_id: minimarket.outlets[0].id, gross_amount: 5_400_000, transaction_count: 216 },
  { merchant_id: minimarket.id, outlet_id: minimarket.outlets[1].id, gross_amount: 2_850_000, transaction_count: 114 },
  { merchant_id: minimarket.id, outlet_id: minimarket.outlets[2].id, gross_amount: 1_750_000, transaction_count: 73 },
];

/**
 * partner-api.md §4: counts of the merchants in scope; Contract A adds the gross and count of their success
 * transactions (all time); both carry them per merchant and outlet (`outlet_breakdown`, §1). The totals run with the
 * principal narrowed to the merchants just listed, which the transaction subgraph requires.
 */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/partners/:partner_id/referral-merchants/summary',
  summary: "Summarize the merchants in the calling partner's scope",
  description: [
    'Scope merchant.read. Body by the credential’s contract (A or B).',
    '',
    '- `outlet_breakdown` (both contracts): the success transactions of the merchants in scope, all time, per merchant and outlet; in contract A its entries add up to `gross_amount` and `transaction_count`.',
  ].join('\n'),
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
            outlet_breakdown: EXAMPLE_BREAKDOWN,
          },
        },
        contract_b: {
          summary: CONTRACT_B,
          value: {
            partner_id: DEMO.partner.id,
            merchant_count: 2,
            active_count: 2,
            inactive_count: 0,
            outlet_breakdown: EXAMPLE_BREAKDOWN,
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
    const { partnerMerchants } = await ctx.execute(PartnerReferralSummaryDocument, {});
    const merchantCount = partnerMerchants.length;
    const activeCount = partnerMerchants.filter((m) => toPartnerMerchantStatus(m.merchant.status) === 'active').length;
    let grossAmount = 0;
    let transactionCount = 0;
    const outletBreakdown: OutletBreakdown = [];
    if (merchantCount > 0) {
      const merchantIds = partnerMerchants.map((m) => m.merchantId);
      const totals = await ctx.execute(PartnerReferralTotalsDocument, { merchantIds }, { acting: scopedTo(principal, merchantIds) });
      for (const m of totals.partnerMerchants) {
        grossAmount += m.merchant.transactionTotals.grossAmount;
        transactionCount += m.merchant.transactionTotals.count;
        for (const o of m.merchant.transactionTotals.outletBreakdown)
          outletBreakdown.push({ merchant_id: m.merchantId, ...toOutletTotals(o) });
      }
    }
    if (principal.contract === 'B') {
      const b: ReferralSummaryB = {
        partner_id: principal.partnerId,
        merchant_count: merchantCount,
        active_count: activeCount,
        inactive_count: merchantCount - activeCount,
        outlet_breakdown: outletBreakdown,
      };
      return b;
    }
    const a: ReferralSummaryA = {
      partner_id: principal.partnerId,
      partner_code: partnerCodeOf(ctx.request),
      merchant_count: merchantCount,
      active_count: activeCount,
      gross_amount: grossAmount,
      transaction_count: transactionCount,
      outlet_breakdown: outletBreakdown,
    };
    return a;
  },
});
