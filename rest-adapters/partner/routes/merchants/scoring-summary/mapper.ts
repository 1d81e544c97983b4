import { toPartnerMerchantStatus } from '@rest-adapters/partner/routes/partner-data';
import type { ScoringSummaryA, ScoringSummaryB } from './schema';

interface Common {
  averageMonthlyGrossAmount: number;
  averageMonthlyTransactionCount: number;
  avgTicketSize: number;
  growth30d: number | null;
  settlementConsistencyScore: number | null;
  transactionStabilityScore: number | null;
}
export interface ScoringMerchantData {
  id: string;
  name: string;
  status: string;
  scoringA?: Common & { growth90d: number | null };
  scoringB?: Common & { monthsSampled: number };
}

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
