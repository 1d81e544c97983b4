import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { MerchantIdParams, scopedTo } from '@rest-adapters/partner/routes/partner-data';
import { PartnerScoringSummaryDocument } from '@rest-adapters/generated/operations';
import { toScoringSummaryA, toScoringSummaryB } from './mapper';
import { ScoringSummaryResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CONTRACT_A, CONTRACT_B } from '@rest-adapters/partner/routes/partner.examples';

/** partner-api.md §4: Merchant.scoringA or scoringB (docs/scoring.md) by the caller's contract, as of now. */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/scoring-summary',
  summary: 'Scoring summary of a merchant in the calling partner’s scope',
  description:
    'Scope scoring.read or risk-summary.read. Contract A: 12-month averages, ratios 0..1; contract B: the last month, percentages and stepped buckets. No value is ever null: where the data is too thin ' +
    '(no base for a growth, nothing settled to judge, fewer than 3 months) the field carries its no-data value (growth 0; ' +
    'Contract A scores 0; Contract B the lowest bucket, 35 and 40) and is named in insufficient_data, which is empty when ' +
    'every value was computed.',
  tags: ['partner: scoring'],
  schema: { params: MerchantIdParams, response: { 200: ScoringSummaryResponse, ...errorResponses(400, 401, 403, 429) } },
  operationId: 'PartnerScoringSummary',
  examples: {
    params: { merchant_id: DEMO.merchantId },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            merchant_id: DEMO.merchantId,
            merchant_name: 'Warung Kopi Demo',
            merchant_status: 'active',
            average_monthly_gross_amount: 7_850_000,
            average_monthly_transaction_count: 312,
            avg_ticket_size: 25_160,
            growth_30d: 0.082,
            growth_90d: 0.145,
            settlement_consistency_score: 0.97,
            transaction_stability_score: 0.88,
            insufficient_data: [],
          },
        },
        contract_b: {
          summary: CONTRACT_B,
          value: {
            merchant_id: DEMO.merchantId,
            average_monthly_gross_amount: 8_120_000,
            average_monthly_transaction_count: 326,
            avg_ticket_size: 24_908,
            growth_30d: 8.2,
            settlement_consistency_score: 95,
            transaction_stability_score: 75,
            months_sampled: 12,
            insufficient_data: [],
          },
        },
      },
    },
  },
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params }, ctx) => {
    const principal = requireScope(ctx.principal, 'scoring.read', 'risk-summary.read');
    const { partnerMerchants } = await ctx.execute(
      PartnerScoringSummaryDocument,
      { merchantId: params.merchant_id, contractA: principal.contract === 'A' },
      { acting: scopedTo(principal, [params.merchant_id]) },
    );
    if (!partnerMerchants[0]) throw new HttpError(403, 'forbidden', 'the merchant is outside the partner’s scope');
    const merchant = partnerMerchants[0].merchant;
    return principal.contract === 'A' ? toScoringSummaryA(merchant) : toScoringSummaryB(merchant);
  },
});
