/** The bands of one business-scale reference row (merchant.business_scales); a null maximum is unbounded. */
export interface ScaleBand {
  code: string;
  name: string;
  omzetPerBulanMin: number;
  omzetPerBulanMax: number | null;
  jumlahKaryawanMin: number;
  jumlahKaryawanMax: number | null;
  sortOrder: number;
}

const within = (value: number, min: number, max: number | null) => value >= min && (max === null || value <= max);

/**
 * The scale of a business from its average monthly revenue and its employee count (core-api.md §2 rule 3).
 * Each criterion picks the row whose band contains it (below the lowest band counts as the lowest, e.g. an
 * owner without employees); when they disagree the larger scale (higher sort order) wins, as PP 7/2021
 * classifies by the criterion that reaches the higher class. Bands that leave a value uncovered pick the
 * nearest row below it.
 */
export function deriveBusinessScale<T extends ScaleBand>(scales: readonly T[], averageMonthlyRevenue: number, employeeCount: number): T {
  if (scales.length === 0) throw new Error('no business scales loaded');
  const ordered = [...scales].sort((a, b) => a.sortOrder - b.sortOrder);
  const pick = (matches: (s: T) => boolean, reached: (s: T) => boolean): T =>
    ordered.find(matches) ?? [...ordered].reverse().find(reached) ?? ordered[0];
  const byRevenue = pick(
    (s) => within(averageMonthlyRevenue, s.omzetPerBulanMin, s.omzetPerBulanMax),
    (s) => averageMonthlyRevenue >= s.omzetPerBulanMin,
  );
  const byEmployees = pick(
    (s) => within(employeeCount, s.jumlahKaryawanMin, s.jumlahKaryawanMax),
    (s) => employeeCount >= s.jumlahKaryawanMin,
  );
  return byRevenue.sortOrder >= byEmployees.sortOrder ? byRevenue : byEmployees;
}
