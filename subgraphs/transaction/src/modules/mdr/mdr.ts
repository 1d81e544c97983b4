import type { Knex } from '@mikro-orm/postgresql';
import { rowsOf } from '@subgraphs/transaction/src/sql';

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
  return (await mdrRatesOf(db, [categoryCode])).get(categoryCode ?? null)!;
}

/** The MDR rates of several MCCs (as mdrRateOf) in one query, keyed by MCC (null: no MCC); a batch asks once. */
export async function mdrRatesOf(db: Knex, categoryCodes: readonly (string | null | undefined)[]): Promise<Map<string | null, string>> {
  const codes = [...new Set(categoryCodes.map((code) => code ?? null))];
  if (codes.length === 0) return new Map();
  const rows = await rowsOf<{ code: string | null; rate: string | null }>(
    db,
    `select c.code, coalesce(
       (select s.rate from "transaction".mdr_category_segments m join "transaction".mdr_segments s using (segment) where m.category_code = c.code),
       (select rate from "transaction".mdr_segments where is_default)
     )::text as rate
     from unnest(?::text[]) as c(code)`,
    [codes],
  );
  const rates = new Map<string | null, string>();
  for (const { code, rate } of rows) {
    if (rate == null) throw new Error('the MDR table has no default segment');
    rates.set(code, rate);
  }
  return rates;
}
