import type { Knex } from '@mikro-orm/postgresql';
import { rowsOf } from '../../sql';

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

/**
 * The MDR rate of a merchant category code (MCC): the rate of the segment the MCC belongs to in
 * `mdr_category_segments`, else (unlisted MCC, or no MCC) the rate of the default segment (`regular`).
 */
export async function mdrRateOf(db: Knex, categoryCode: string | null | undefined): Promise<string> {
  const [row] = await rowsOf<{ rate: string }>(
    db,
    `select coalesce(
       (select s.rate from "transaction".mdr_category_segments c join "transaction".mdr_segments s using (segment) where c.category_code = ?),
       (select rate from "transaction".mdr_segments where is_default)
     )::text as rate`,
    [categoryCode ?? null],
  );
  if (row?.rate == null) throw new Error('the MDR table has no default segment');
  return row.rate;
}
