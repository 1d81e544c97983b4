/** Rates are stored as numeric(6, 4): at most four decimals. */
const RATE_PATTERN = /^0(?:\.(\d{1,4}))?$/;

/**
 * MDR fee of a gross amount: round_half_up(gross × rate), in exact integer arithmetic (no floats).
 * `rate` is a decimal string below 1 with at most four decimals, as PostgreSQL renders numeric(6, 4).
 */
export function mdrFeeOf(gross: number, rate: string): number {
  if (!Number.isSafeInteger(gross) || gross < 0) throw new RangeError(`gross must be a non-negative whole amount, got ${gross}`);
  const match = RATE_PATTERN.exec(rate);
  if (!match) throw new RangeError(`rate must be a decimal in [0, 1) with at most four decimals, got ${rate}`);
  const perTenThousand = BigInt((match[1] ?? '').padEnd(4, '0'));
  // floor(gross × r / 10000 + 1/2) = floor((2 × gross × r + 10000) / 20000) for gross ≥ 0
  return Number((2n * BigInt(gross) * perTenThousand + 10_000n) / 20_000n);
}

/** One row of the MDR policy (`mdr_policy`) of a segment, as the copy's read and MdrRepository carry it. */
export interface MdrPolicyRow {
  /** QRIS merchant criteria (UMI, UKE, UME, UBE, URE); null: every criteria. */
  criteria: string | null;
  /** The amount band, whole rupiah, both ends inclusive; `amount_to` null: no upper bound. */
  amount_from: number;
  amount_to: number | null;
  /** The period, epoch milliseconds: from inclusive, to exclusive (null: open). */
  from_ms: number;
  to_ms: number | null;
  /** numeric(6, 4) text. */
  rate: string;
}

/** What a merchant's MDR is chosen from: its QRIS criteria and the policy rows of its MCC's segment. */
export interface MerchantMdr {
  criteria: string;
  policy: readonly MdrPolicyRow[];
}

/**
 * The MDR rate of a payment of `gross` rupiah at `at` (docs/decisions/0240-mdr-policy.md): of the segment's rows whose
 * band holds the amount and that are in force at `at`, a row of the merchant's criteria before a row for every criteria
 * (null), the latest to start on a tie; a time before every such row's period takes the earliest of them. Undefined
 * when the segment has no row for the amount.
 */
export function mdrRateAt({ criteria, policy }: MerchantMdr, gross: number, at: Date): string | undefined {
  const time = at.getTime();
  const rows = policy.filter(
    (p) => (p.criteria === criteria || p.criteria === null) && gross >= p.amount_from && (p.amount_to === null || gross <= p.amount_to),
  );
  const latestInForce = (of: (string | null)[]) =>
    rows
      .filter((p) => of.includes(p.criteria) && p.from_ms <= time && (p.to_ms === null || time < p.to_ms))
      .reduce<MdrPolicyRow | undefined>((a, b) => (!a || b.from_ms > a.from_ms ? b : a), undefined);
  const chosen =
    latestInForce([criteria]) ??
    latestInForce([null]) ??
    (rows.every((p) => p.from_ms > time)
      ? rows.reduce<MdrPolicyRow | undefined>(
          (a, b) => (!a || b.from_ms < a.from_ms || (b.from_ms === a.from_ms && b.criteria === criteria) ? b : a),
          undefined,
        )
      : undefined);
  return chosen?.rate;
}
