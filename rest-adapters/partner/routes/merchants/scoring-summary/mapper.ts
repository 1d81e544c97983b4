import { toPartnerMerchantStatus } from '@rest-adapters/partner/routes/partner-data';
import type { PartnerScoringSummaryQuery } from '@rest-adapters/generated/operations';
import type { ScoringSummaryA, ScoringSummaryB } from './schema';

/** The merchant with scoringA or scoringB (by `contractA`). */
export type ScoringMerchantData = PartnerScoringSummaryQuery['partnerMerchants'][number]['merchant'];

/**
 * What a lender gets where the data is too thin to compute a value (docs/scoring.md §8): never null, but the
 * documented type with the lowest value — growth 0, Contract A scores 0, Contract B the lowest bucket — and the
 * field's name in `insufficient_data`. docs/decisions/0039-scoring.md.
 */
export const NO_DATA = {
  A: { growth_30d: 0, growth_90d: 0, settlement_consistency_score: 0, transaction_stability_score: 0 },
  B: { growth_30d: 0, settlement_consistency_score: 35, transaction_stability_score: 40 },
} as const;

/** The values, with each null replaced by its no-data value, and the names of those replaced (in field order). */
function withDefaults<K extends string>(values: Record<K, number | null>, defaults: Record<K, number>) {
  const filled = {} as Record<K, number>;
  const insufficient: K[] = [];
  for (const field of Object.keys(defaults) as K[]) {
    const value = values[field];
    if (value === null) insufficient.push(field);
    filled[field] = value ?? defaults[field];
  }
  return { filled, insufficient };
}

export function toScoringSummaryA(m: ScoringMerchantData): ScoringSummaryA {
  const s = m.scoringA!;
  const { filled, insufficient } = withDefaults(
    {
      growth_30d: s.growth30d,
      growth_90d: s.growth90d,
      settlement_consistency_score: s.settlementConsistencyScore,
      transaction_stability_score: s.transactionStabilityScore,
    },
    NO_DATA.A,
  );
  return {
    merchant_id: m.id,
    merchant_name: m.name,
    merchant_status: toPartnerMerchantStatus(m.status),
    average_monthly_gross_amount: s.averageMonthlyGrossAmount,
    average_monthly_transaction_count: s.averageMonthlyTransactionCount,
    avg_ticket_size: s.avgTicketSize,
    ...filled,
    insufficient_data: insufficient,
  };
}

export function toScoringSummaryB(m: ScoringMerchantData): ScoringSummaryB {
  const s = m.scoringB!;
  const { filled, insufficient } = withDefaults(
    {
      growth_30d: s.growth30d,
      settlement_consistency_score: s.settlementConsistencyScore,
      transaction_stability_score: s.transactionStabilityScore,
    },
    NO_DATA.B,
  );
  return {
    merchant_id: m.id,
    average_monthly_gross_amount: s.averageMonthlyGrossAmount,
    average_monthly_transaction_count: s.averageMonthlyTransactionCount,
    avg_ticket_size: s.avgTicketSize,
    ...filled,
    months_sampled: s.monthsSampled,
    insufficient_data: insufficient,
  };
}
