import { type Static, Type } from '@sinclair/typebox';
import { MerchantStatusSchema } from '@rest-adapters/partner/routes/partner-data';

/**
 * The values a merchant's data may be too thin for. They are never null (typed lender clients reject null where
 * partner-api.md §2 gives a number): without data they carry the no-data value of docs/scoring.md §8 and are named
 * in `insufficient_data`. docs/decisions/0039-scoring.md.
 */
const InsufficientData = <T extends string>(fields: readonly T[]) =>
  Type.Array(Type.Union(fields.map((f) => Type.Literal(f))), {
    description:
      'The fields whose value is a default for lack of data (growth 0, the lowest score), not a computed result; empty when every value was computed. ' +
      'A lender should read a named field as "not enough data", not as "bad".',
  });

/** Contract A (partner-api.md §2 "Scoring summary"; docs/scoring.md §5): 12-month averages, ratios 0..1. */
export const ScoringSummaryA = Type.Object(
  {
    merchant_id: Type.String({ format: 'uuid' }),
    merchant_name: Type.String(),
    merchant_status: MerchantStatusSchema,
    average_monthly_gross_amount: Type.Integer(),
    average_monthly_transaction_count: Type.Integer(),
    avg_ticket_size: Type.Integer(),
    growth_30d: Type.Number({ description: 'Ratio (0.082 = +8.2 %); 0 without a base (listed in insufficient_data).' }),
    growth_90d: Type.Number({ description: 'Ratio; 0 without a base (listed in insufficient_data).' }),
    settlement_consistency_score: Type.Number({
      minimum: 0,
      maximum: 1,
      description: '0 when nothing could be judged (insufficient_data).',
    }),
    transaction_stability_score: Type.Number({ minimum: 0, maximum: 1, description: '0 with fewer than 3 months (insufficient_data).' }),
    insufficient_data: InsufficientData(['growth_30d', 'growth_90d', 'settlement_consistency_score', 'transaction_stability_score']),
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
    growth_30d: Type.Number({ description: 'Percent (8.2 = +8.2 %) versus the previous month; 0 without a base (insufficient_data).' }),
    settlement_consistency_score: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: 'Bucket 95/85/70/55/35; 35 when nothing could be judged (insufficient_data).',
    }),
    transaction_stability_score: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: 'Bucket 90/75/60/40; 40 with fewer than 3 months (insufficient_data).',
    }),
    months_sampled: Type.Integer(),
    insufficient_data: InsufficientData(['growth_30d', 'settlement_consistency_score', 'transaction_stability_score']),
  },
  { additionalProperties: false, title: 'PartnerScoringSummaryB' },
);
export type ScoringSummaryB = Static<typeof ScoringSummaryB>;

export const ScoringSummaryResponse = Type.Unsafe<ScoringSummaryA | ScoringSummaryB>({ oneOf: [ScoringSummaryA, ScoringSummaryB] });
