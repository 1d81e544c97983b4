import { toPartnerMerchantStatus } from '@rest-adapters/partner/routes/partner-data';
import type { PartnerScoringSummaryQuery } from '@rest-adapters/generated/operations';
import type { ScoringSummaryA, ScoringSummaryB } from './schema';

/** The merchant with scoringA or scoringB (by `contractA`). */
export type ScoringMerchantData = PartnerScoringSummaryQuery['partnerMerchants'][number]['merchant'];

export function toScoringSummaryA(m: ScoringMerchantData): ScoringSummaryA {
  const s = m.scoringA!;
  return {
    merchant_id: m.id,
    merchant_name: m.name,
    merchant_status: toPartnerMerchantStatus(m.status),
    average_monthly_gross_amount: s.averageMonthlyGrossAmount,
    average_monthly_transaction_count: s.averageMonthlyTransactionCount,
    avg_ticket_size: s.avgTicketSize,
    growth_30d: s.growth30d,
    growth_90d: s.growth90d,
    settlement_consistency_score: s.settlementConsistencyScore,
    transaction_stability_score: s.transactionStabilityScore,
  };
}

export function toScoringSummaryB(m: ScoringMerchantData): ScoringSummaryB {
  const s = m.scoringB!;
  return {
    merchant_id: m.id,
    average_monthly_gross_amount: s.averageMonthlyGrossAmount,
    average_monthly_transaction_count: s.averageMonthlyTransactionCount,
    avg_ticket_size: s.avgTicketSize,
    growth_30d: s.growth30d,
    settlement_consistency_score: s.settlementConsistencyScore,
    transaction_stability_score: s.transactionStabilityScore,
    months_sampled: s.monthsSampled,
  };
}
