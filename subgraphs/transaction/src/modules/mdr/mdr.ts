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
