import { Repository } from '@lib/db/repository';

/**
 * The MDR rate of the MCC that the SQL expression `category` yields (null: no MCC), as numeric(6, 4) text: the rate of
 * the segment the MCC belongs to in `mdr_category_segments`, else (unlisted MCC, or no MCC) the rate of the default
 * segment (`regular`); null only when the table has no default segment. Its own aliases are mdr_c and mdr_s.
 */
export const mdrRateOf = (category: string): string => `coalesce(
  (select mdr_s.rate from "transaction".mdr_category_segments mdr_c join "transaction".mdr_segments mdr_s using (segment)
    where mdr_c.category_code = ${category}),
  (select rate from "transaction".mdr_segments where is_default))::text`;

/** The MDR table (segments and the MCCs in each), read by the payment-event intake in its transaction. */
export class MdrRepository extends Repository {
  /**
   * The MDR rate of a merchant category code (MCC): the rate of the segment the MCC belongs to in
   * `mdr_category_segments`, else (unlisted MCC, or no MCC) the rate of the default segment (`regular`).
   */
  async rateOf(categoryCode: string | null | undefined): Promise<string> {
    return (await this.ratesOf([categoryCode])).get(categoryCode ?? null)!;
  }

  /** The MDR rates of several MCCs (as rateOf) in one query, keyed by MCC (null: no MCC); a batch asks once. */
  async ratesOf(categoryCodes: readonly (string | null | undefined)[]): Promise<Map<string | null, string>> {
    const codes = [...new Set(categoryCodes.map((code) => code ?? null))];
    if (codes.length === 0) return new Map();
    const rows = await this.rows<{ code: string | null; rate: string | null }>(
      `select c.code, ${mdrRateOf('c.code')} as rate from unnest(?::text[]) as c(code)`,
      [codes],
    );
    const rates = new Map<string | null, string>();
    for (const { code, rate } of rows) {
      if (rate == null) throw new Error('the MDR table has no default segment');
      rates.set(code, rate);
    }
    return rates;
  }
}
