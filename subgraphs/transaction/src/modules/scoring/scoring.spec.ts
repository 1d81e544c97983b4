import {
  type DailyAggregate,
  growthPercent,
  growthRatio,
  roundedQuotient,
  roundedRatio,
  scoreContractA,
  scoreContractB,
  scoringWindows,
  settlementBucket,
  stability,
  stabilityBucket,
} from './scoring';

/** A day of `count` transactions of `amount` in total, all settled on time unless told. */
const day = (d: string, count: number, amount: number, onTime = count, judged = count): DailyAggregate => ({
  day: d,
  count,
  amount,
  onTime,
  judged,
});

describe('scoring windows (Asia/Jakarta)', () => {
  it('takes the 12 complete Jakarta months before the month of asOf', () => {
    // 2026-11-15T05:00Z = 2026-11-15 12:00 WIB → M0 = 2026-11, window 2025-11 … 2026-10.
    const w = scoringWindows(new Date('2026-11-15T05:00:00Z'));
    expect(w.asOfDay).toBe('2026-11-15');
    expect(w.months).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
    ]);
    expect(w.lastMonth).toBe('2026-10');
    expect(w.previousMonth).toBe('2026-09');
    // 2025-11-01 00:00 WIB = 2025-10-31 17:00Z; 2026-11-01 00:00 WIB = 2026-10-31 17:00Z; 2026-11-15 00:00 WIB = 2026-11-14 17:00Z.
    expect(w.windowStartAt.toISOString()).toBe('2025-10-31T17:00:00.000Z');
    expect(w.windowEndAt.toISOString()).toBe('2026-10-31T17:00:00.000Z');
    expect(w.asOfDayStartAt.toISOString()).toBe('2026-11-14T17:00:00.000Z');
  });

  it('switches month at 00:00 WIB (17:00Z), not at UTC midnight, and across a year', () => {
    // 2026-10-31T16:59:59Z = 2026-10-31 23:59:59 WIB → still October: last month September.
    expect(scoringWindows(new Date('2026-10-31T16:59:59Z')).lastMonth).toBe('2026-09');
    // 2026-10-31T17:00:00Z = 2026-11-01 00:00 WIB → November: last month October.
    expect(scoringWindows(new Date('2026-10-31T17:00:00Z')).lastMonth).toBe('2026-10');
    // 2026-01-10 → window 2025-01 … 2025-12.
    const jan = scoringWindows(new Date('2026-01-10T00:00:00Z'));
    expect([jan.months[0], jan.lastMonth, jan.previousMonth]).toEqual(['2025-01', '2025-12', '2025-11']);
  });
});

describe('rounding', () => {
  it('rounds whole rupiah half up, exactly', () => {
    expect(roundedQuotient(225_000, 2)).toBe(112_500);
    expect(roundedQuotient(5, 2)).toBe(3); // 2.5 → 3
    expect(roundedQuotient(13, 12)).toBe(1); // 1.083…
    expect(roundedQuotient(1_200_000, 13)).toBe(92_308); // 92 307.69…
    expect(roundedQuotient(7, 0)).toBe(0);
    // 2^53 − 1 = 9 007 199 254 740 991; / 2 = 4 503 599 627 370 495.5 → …496 (a float division would lose the half).
    expect(roundedQuotient(Number.MAX_SAFE_INTEGER, 2)).toBe(4_503_599_627_370_496);
  });

  it('rounds ratios to 4 decimals and percents to 1, halves away from zero; null on a zero base', () => {
    expect(growthRatio(108_200, 100_000)).toBe(0.082); // 8 200 / 100 000
    expect(growthRatio(25_000, 160_000)).toBe(-0.8438); // −135 000 / 160 000 = −0.84375 → −0.8438
    expect(growthRatio(10_000, 70_000)).toBe(-0.8571); // −60 000 / 70 000 = −0.857142…
    expect(growthRatio(5, 0)).toBeNull();
    expect(growthPercent(108_200, 100_000)).toBe(8.2);
    expect(growthPercent(100_050, 100_000)).toBe(0.1); // 0.05 % → 0.1 (half up)
    expect(growthPercent(99_950, 100_000)).toBe(-0.1); // −0.05 % → −0.1 (half away from zero)
    expect(growthPercent(0, 100_000)).toBe(-100);
    expect(growthPercent(1, 0)).toBeNull();
    expect(roundedRatio(1, 3, 4)).toBe(0.3333);
    expect(roundedRatio(2, 3, 4)).toBe(0.6667);
    expect(roundedRatio(0, 0, 4)).toBeNull();
  });
});

describe('stability (1 − population CV of monthly gross)', () => {
  it('is computed by hand on small series', () => {
    // 6 × 80 000 and 6 × 120 000: μ = 100 000, every |g − μ| = 20 000 → σ = 20 000, CV = 0.2 → 0.8.
    expect(stability([80_000, 80_000, 80_000, 80_000, 80_000, 80_000, 120_000, 120_000, 120_000, 120_000, 120_000, 120_000])).toBe(0.8);
    // 100 000 ×4 and 0: μ = 80 000; deviations 20 000 ×4 and 80 000; σ² = (4·4e8 + 6.4e9)/5 = 1.6e9, σ = 40 000; CV = 0.5 → 0.5.
    expect(stability([100_000, 100_000, 100_000, 100_000, 0])).toBe(0.5);
    // 1, 2, 3: μ = 2, σ² = (1 + 0 + 1)/3 = 2/3, σ = 0.816497; CV = 0.408248 → 1 − CV = 0.591752 → 0.5918.
    expect(stability([1, 2, 3])).toBe(0.5918);
    // Constant: σ = 0 → 1.
    expect(stability([50, 50, 50])).toBe(1);
    // 0, 0, 300: μ = 100, σ² = (1e4 + 1e4 + 4e4)/3 = 2e4, σ = 141.42; CV = 1.4142 → 1 − CV < 0 → clamped 0.
    expect(stability([0, 0, 300])).toBe(0);
    // Every month 0: defined as 0. Fewer than 3 months: null.
    expect(stability([0, 0, 0])).toBe(0);
    expect(stability([10, 20])).toBeNull();
    expect(stability([])).toBeNull();
  });
});

describe('Contract B buckets at their thresholds (applied to the published 4-decimal values)', () => {
  it.each([
    [1, 95],
    [0.98, 95],
    [0.9799, 85],
    [0.9, 85],
    [0.8999, 70],
    [0.75, 70],
    [0.7499, 55],
    [0.5, 55],
    [0.4999, 35],
    [0, 35],
    [null, null],
  ])('settlement share %p → %p', (share, bucket) => {
    expect(settlementBucket(share)).toBe(bucket);
  });

  it.each([
    [1, 90],
    [0.8, 90],
    [0.7999, 75],
    [0.6, 75],
    [0.5999, 60],
    [0.4, 60],
    [0.3999, 40],
    [0, 40],
    [null, null],
  ])('stability %p → %p', (score, bucket) => {
    expect(stabilityBucket(score)).toBe(bucket);
  });

  it('buckets the rounded share, so 0.97995 (→ 0.9800) is 95 and 0.97994 (→ 0.9799) is 85', () => {
    const asOf = new Date('2026-11-15T05:00:00Z');
    const share = (onTime: number, judged: number) => ({
      a: scoreContractA({ asOf, firstCountedMonth: '2026-10', days: [day('2026-10-05', judged, judged * 1000, onTime, judged)] })
        .settlementConsistencyScore,
      b: scoreContractB({ asOf, firstCountedMonth: '2026-10', days: [day('2026-10-05', judged, judged * 1000, onTime, judged)] })
        .settlementConsistencyScore,
    });
    expect(share(19_599, 20_000)).toEqual({ a: 0.98, b: 95 }); // 0.97995 → 0.9800
    expect(share(97_994, 100_000)).toEqual({ a: 0.9799, b: 85 }); // 0.97994 → 0.9799
    expect(share(49, 50)).toEqual({ a: 0.98, b: 95 }); // exactly 0.98
    expect(share(9, 10)).toEqual({ a: 0.9, b: 85 }); // exactly 0.90
    expect(share(3, 4)).toEqual({ a: 0.75, b: 70 }); // exactly 0.75
    expect(share(1, 2)).toEqual({ a: 0.5, b: 55 }); // exactly 0.50
    expect(share(4_999, 10_000)).toEqual({ a: 0.4999, b: 35 });
  });

  it('stability exactly at 0.60 and 0.40 from monthly series', () => {
    const asOf = new Date('2026-11-15T05:00:00Z');
    const score = (amounts: number[]) => {
      // amounts are the last len months of the window (…, 2026-10), one transaction each on the 5th.
      const months = scoringWindows(asOf).months.slice(-amounts.length);
      const input = { asOf, firstCountedMonth: months[0], days: amounts.map((a, i) => day(`${months[i]}-05`, a > 0 ? 1 : 0, a)) };
      return [scoreContractA(input).transactionStabilityScore, scoreContractB(input).transactionStabilityScore];
    };
    // 60, 140, 60, 140: μ = 100, every deviation 40 → σ = 40, CV = 0.4 → 0.6 → 75.
    expect(score([60, 140, 60, 140])).toEqual([0.6, 75]);
    // 40, 160, 40, 160: μ = 100, σ = 60, CV = 0.6 → 0.4 → 60.
    expect(score([40, 160, 40, 160])).toEqual([0.4, 60]);
    // 39, 161, 39, 161: σ = 61, CV = 0.61 → 0.39 → 40.
    expect(score([39, 161, 39, 161])).toEqual([0.39, 40]);
  });
});

describe('contracts from aggregates', () => {
  const asOf = new Date('2026-11-15T05:00:00Z');

  it('no history at all', () => {
    const input = { asOf, firstCountedMonth: null, days: [] };
    expect(scoreContractA(input)).toEqual({
      averageMonthlyGrossAmount: 0,
      averageMonthlyTransactionCount: 0,
      avgTicketSize: 0,
      growth30d: null,
      growth90d: null,
      settlementConsistencyScore: null,
      transactionStabilityScore: null,
      monthsInWindow: 0,
    });
    expect(scoreContractB(input)).toEqual({
      averageMonthlyGrossAmount: 0,
      averageMonthlyTransactionCount: 0,
      avgTicketSize: 0,
      growth30d: null,
      settlementConsistencyScore: null,
      transactionStabilityScore: null,
      monthsSampled: 0,
    });
  });

  it('counts empty months as 0 only from the first counted month on; months before the window count fully', () => {
    // First month 2026-08 (inside the window): months 2026-08 … 2026-10 = 3; only 2026-08 has 90 000.
    const late = scoreContractA({ asOf, firstCountedMonth: '2026-08', days: [day('2026-08-03', 3, 90_000)] });
    expect(late.monthsInWindow).toBe(3);
    expect(late.averageMonthlyGrossAmount).toBe(30_000); // 90 000 / 3
    expect(late.averageMonthlyTransactionCount).toBe(1); // 3 / 3
    expect(late.avgTicketSize).toBe(30_000); // 90 000 / 3
    // First month long before the window: 12 months, one of them with 120 000 → 10 000.
    const old = scoreContractA({ asOf, firstCountedMonth: '2020-01', days: [day('2026-08-03', 3, 120_000)] });
    expect(old.monthsInWindow).toBe(12);
    expect(old.averageMonthlyGrossAmount).toBe(10_000);
    expect(old.averageMonthlyTransactionCount).toBe(0); // 3 / 12 = 0.25 → 0
  });

  it("ignores asOf's own day in the day windows and its month in the month windows", () => {
    // 2026-11-15 is D0 (excluded); 2026-11-14 is D0−1 (in cur30); 2026-10-16 is D0−30 (in cur30); 2026-10-15 is D0−31 (prev30).
    const input = {
      asOf,
      firstCountedMonth: '2026-10',
      days: [day('2026-10-15', 1, 100), day('2026-10-16', 1, 50), day('2026-11-14', 1, 100), day('2026-11-15', 1, 1_000_000)],
    };
    // cur30 = 50 + 100 = 150, prev30 = 100 → (150 − 100)/100 = 0.5.
    expect(scoreContractA(input).growth30d).toBe(0.5);
    // Window months: only 2026-10 (100 + 50 = 150, 2 transactions): November is the current month.
    expect(scoreContractB(input)).toMatchObject({
      averageMonthlyGrossAmount: 150,
      averageMonthlyTransactionCount: 2,
      avgTicketSize: 75,
      monthsSampled: 1,
    });
  });
});
