import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

const WINDOW = 'Windows are Asia/Jakarta calendar months and days before asOf (docs/scoring.md).';

@ObjectType('ScoringA', { description: `Scoring summary, Contract A (ratios 0..1, decimal ratios). ${WINDOW}` })
export class ScoringAType {
  @Field(() => ID)
  merchantId!: string;

  @Field(() => DateTimeResolver, { description: 'The instant scored (default: now).' })
  asOf!: Date;

  @Field(() => DateTimeResolver, { description: '00:00 WIB on the 1st of the 12th complete month before asOf (inclusive).' })
  windowStartAt!: Date;

  @Field(() => DateTimeResolver, { description: "00:00 WIB on the 1st of asOf's month (exclusive): the 12-month window ends here." })
  windowEndAt!: Date;

  @Field(() => SafeIntResolver, {
    description:
      'Σ counted gross of the 12 complete months / months since the first counted month (≤ 12), round half up; 0 without history.',
  })
  averageMonthlyGrossAmount!: number;

  @Field(() => Int, { description: 'Counted transactions of the 12 months / the same months, round half up; 0 without history.' })
  averageMonthlyTransactionCount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ counted gross / count over the 12 months, round half up; 0 when count = 0.' })
  avgTicketSize!: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Ratio (0.082 = +8.2 %), 4 decimals: the 30 Jakarta days before asOf's day vs the 30 before; null when those had no gross.",
  })
  growth30d!: number | null;

  @Field(() => Float, { nullable: true, description: 'As growth30d over 90 days vs the 90 before.' })
  growth90d!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Share (0..1, 4 decimals) of judged counted transactions of the 12 months settled by the end of the Jakarta day after; null when none.',
  })
  settlementConsistencyScore!: number | null;

  @Field(() => Float, {
    nullable: true,
    description: '1 − coefficient of variation of monthly gross, clamped to 0..1, 4 decimals; null with fewer than 3 months.',
  })
  transactionStabilityScore!: number | null;

  @Field(() => Int, { description: 'Months averaged over: the 12 months from the first counted month on (0..12).' })
  monthsInWindow!: number;
}

@ObjectType('ScoringB', { description: `Scoring summary, Contract B (last month, percent, stepped buckets). ${WINDOW}` })
export class ScoringBType {
  @Field(() => ID)
  merchantId!: string;

  @Field(() => DateTimeResolver, { description: 'The instant scored (default: now).' })
  asOf!: Date;

  @Field(() => DateTimeResolver, { description: '00:00 WIB on the 1st of the 12th complete month before asOf (inclusive).' })
  windowStartAt!: Date;

  @Field(() => DateTimeResolver, { description: "00:00 WIB on the 1st of asOf's month (exclusive): the 12-month window ends here." })
  windowEndAt!: Date;

  @Field(() => SafeIntResolver, { description: 'Counted gross of the last complete month.' })
  averageMonthlyGrossAmount!: number;

  @Field(() => Int, { description: 'Counted transactions of the last complete month.' })
  averageMonthlyTransactionCount!: number;

  @Field(() => SafeIntResolver, { description: 'Last month gross / count, round half up; 0 when count = 0.' })
  avgTicketSize!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'Percent (8.2 = +8.2 %), 1 decimal: last month vs the month before; null when that month had no gross.',
  })
  growth30d!: number | null;

  @Field(() => Int, {
    nullable: true,
    description:
      "Contract A's settlement share in buckets: ≥ 0.98 → 95, ≥ 0.90 → 85, ≥ 0.75 → 70, ≥ 0.50 → 55, else 35; null when none judged.",
  })
  settlementConsistencyScore!: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "Contract A's stability in buckets: ≥ 0.80 → 90, ≥ 0.60 → 75, ≥ 0.40 → 60, else 40; null with fewer than 3 months.",
  })
  transactionStabilityScore!: number | null;

  @Field(() => Int, { description: 'Of the 12 complete months, those with at least one counted transaction.' })
  monthsSampled!: number;
}
