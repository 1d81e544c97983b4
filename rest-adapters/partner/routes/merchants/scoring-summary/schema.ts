import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import { MerchantStatusSchema } from '@rest-adapters/partner/routes/partner-data';

/** Contract A (partner-api.md §2 "Scoring summary"; docs/scoring.md §5): 12-month averages, ratios 0..1. */
export const ScoringSummaryA = Type.Object(
  {
    merchant_id: Type.String({ format: 'uuid' }),
    merchant_name: Type.String(),
    merchant_status: MerchantStatusSchema,
    average_monthly_gross_amount: Type.Integer(),
    average_monthly_transaction_count: Type.Integer(),
    avg_ticket_size: Type.Integer(),
    growth_30d: Nullable(Type.Number({ description: 'Ratio (0.082 = +8.2 %); null without a base.' })),
    growth_90d: Nullable(Type.Number()),
    settlement_consistency_score: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    transaction_stability_score: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false, title: 'PartnerScoringSummaryA' },
);
export type ScoringSummaryA = Static<typeof ScoringSummaryA>;

/** Contract B (docs/scoring.md §6): last month, percent, stepped buckets. */
export const ScoringSummaryB = Type.Object(
  {
    merchant_id: Type.String({ format: 'uuid' }),
    average_monthly_gross_amount: Type.Integer(),
    average_monthly_transaction_count: Type.Integer(),
    avg_ticket_size: Type.Integer(),
    growth_30d: Nullable(Type.Number({ description: 'Percent (8.2 = +8.2 %) versus the previous month.' })),
    settlement_consistency_score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    transaction_stability_score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    months_sampled: Type.Integer(),
  },
  { additionalProperties: false, title: 'PartnerScoringSummaryB' },
);
export type ScoringSummaryB = Static<typeof ScoringSummaryB>;

export const ScoringSummaryResponse = Type.Unsafe<ScoringSummaryA | ScoringSummaryB>({ oneOf: [ScoringSummaryA, ScoringSummaryB] });
