/**
 * Merchant scoring (docs/scoring.md), as pure functions of per-day aggregates. No I/O: scoring.service.ts
 * reads the aggregates with one grouped query; everything here is arithmetic a finance partner can redo by hand.
 *
 * Calendar: Asia/Jakarta through the shared zone helper (IANA offsets, no constant). Dates are 'YYYY-MM-DD',
 * months 'YYYY-MM'.
 */
import { ZonedCalendar, addDays } from '@lib/time/zoned-time';

export const WINDOW_MONTHS = 12;
/** Stability needs at least this many months in its sample (else null). */
export const MIN_STABILITY_MONTHS = 3;

/** Counted transactions of one Jakarta business day (what the service reads; days without any are absent). */
export interface DailyAggregate {
  /** Jakarta date, YYYY-MM-DD. */
  day: string;
  /** Counted transactions: status success with gross − refunded > 0. */
  count: number;
  /** Σ (gross_amount − refunded_amount), whole rupiah. */
  amount: number;
  /** Of those, settled (as of asOf) no later than the end of the Jakarta day after `day`. */
  onTime: number;
  /** Of those, the ones that can be judged as of asOf: on time, or whose deadline has passed. */
  judged: number;
}

export interface ScoringInput {
  asOf: Date;
  /** Jakarta month of the merchant's first counted transaction before asOf's month, or null when none. */
  firstCountedMonth: string | null;
  days: readonly DailyAggregate[];
}

/** The calendar windows of one asOf (all bounds are Jakarta dates or months). */
export interface ScoringWindows {
  /** Jakarta date of asOf (D0); day windows end the day before it. */
  asOfDay: string;
  /** Jakarta month of asOf (M0); month windows end the month before it. */
  asOfMonth: string;
  /** M0−12 … M0−1, oldest first. */
  months: string[];
  lastMonth: string;
  previousMonth: string;
  /** Instant where the 12-month window starts: 00:00 WIB on the 1st of M0−12. */
  windowStartAt: Date;
  /** Instant where it ends (exclusive): 00:00 WIB on the 1st of M0. */
  windowEndAt: Date;
  /** Instant where the day windows end (exclusive): 00:00 WIB of D0. */
  asOfDayStartAt: Date;
}

export interface ScoringA {
  averageMonthlyGrossAmount: number;
  averageMonthlyTransactionCount: number;
  avgTicketSize: number;
  /** Decimal ratio, 4 decimals; null when the previous 30 days had no gross. */
  growth30d: number | null;
  growth90d: number | null;
  /** 0..1, 4 decimals; null when no transaction of the window can be judged. */
  settlementConsistencyScore: number | null;
  /** 0..1, 4 decimals; null when fewer than 3 months are sampled. */
  transactionStabilityScore: number | null;
  /** Months averaged over (from the first counted month, at most 12); informational. */
  monthsInWindow: number;
}

export interface ScoringB {
  averageMonthlyGrossAmount: number;
  averageMonthlyTransactionCount: number;
  avgTicketSize: number;
  /** Percent, 1 decimal, last month versus the month before; null when the month before had no gross. */
  growth30d: number | null;
  /** 95/85/70/55/35 or null. */
  settlementConsistencyScore: number | null;
  /** 90/75/60/40 or null. */
  transactionStabilityScore: number | null;
  monthsSampled: number;
}

// ---------------------------------------------------------------- calendar

/** The Asia/Jakarta calendar of the shared zone helper (lib/time/zoned-time.ts): no fixed offset here. */
const JAKARTA = new ZonedCalendar('Asia/Jakarta');

/** Jakarta date (YYYY-MM-DD) of an instant. */
export const jakartaDate = (instant: Date): string => JAKARTA.dateOf(instant);

/** The instant of 00:00 WIB on a Jakarta date. */
export const jakartaMidnight = (day: string): Date => JAKARTA.midnight(day);

export { addDays };

export function addMonths(month: string, months: number): string {
  const [year, mon] = month.split('-').map(Number);
  const index = year * 12 + (mon - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function scoringWindows(asOf: Date): ScoringWindows {
  if (Number.isNaN(asOf.getTime())) throw new RangeError('asOf must be a valid instant');
  const asOfDay = jakartaDate(asOf);
  const asOfMonth = asOfDay.slice(0, 7);
  const months = Array.from({ length: WINDOW_MONTHS }, (_, i) => addMonths(asOfMonth, i - WINDOW_MONTHS));
  return {
    asOfDay,
    asOfMonth,
    months,
    lastMonth: months[WINDOW_MONTHS - 1],
    previousMonth: months[WINDOW_MONTHS - 2],
    windowStartAt: jakartaMidnight(`${months[0]}-01`),
    windowEndAt: jakartaMidnight(`${asOfMonth}-01`),
    asOfDayStartAt: jakartaMidnight(asOfDay),
  };
}

// ---------------------------------------------------------------- rounding (exact, on integers)

/** round(num / den) with halves away from zero, exactly (BigInt); den > 0. */
function divRound(num: bigint, den: bigint): bigint {
  const negative = num < 0n;
  const abs = negative ? -num : num;
  const q = (2n * abs + den) / (2n * den);
  return negative ? -q : q;
}

/** Whole rupiah (or count) a / b, round half up; 0 when b = 0. Both non-negative integers. */
export function roundedQuotient(a: number, b: number): number {
  return b === 0 ? 0 : Number(divRound(BigInt(a), BigInt(b)));
}

/** num / den to `decimals` places, halves away from zero (exact); null when den = 0. */
export function roundedRatio(num: number, den: number, decimals: number): number | null {
  if (den === 0) return null;
  const scale = 10n ** BigInt(decimals);
  return Number(divRound(BigInt(num) * scale, BigInt(den))) / Number(scale);
}

/** (cur − prev) / prev as a ratio (4 decimals) or percent (×100, 1 decimal); null when prev = 0. */
export function growthRatio(current: number, previous: number): number | null {
  return roundedRatio(current - previous, previous, 4);
}
export function growthPercent(current: number, previous: number): number | null {
  // (cur − prev) × 100 / prev to 1 decimal = (cur − prev) × 1000 / prev rounded, / 10.
  return previous === 0 ? null : Number(divRound(BigInt(current - previous) * 1000n, BigInt(previous))) / 10;
}

// ---------------------------------------------------------------- measures

/**
 * 1 − CV of the monthly gross series, clamped to [0, 1], 4 decimals. CV = σ/μ with the population standard
 * deviation; computed as √(n·Σg² − (Σg)²) / Σg (the same quotient, with the radicand exact in integers).
 * null when fewer than MIN_STABILITY_MONTHS months; 0 when every month is 0 (no sales is not stability).
 */
export function stability(monthlyGross: readonly number[]): number | null {
  const n = monthlyGross.length;
  if (n < MIN_STABILITY_MONTHS) return null;
  const sum = monthlyGross.reduce((s, g) => s + BigInt(g), 0n);
  if (sum === 0n) return 0;
  const sumSquares = monthlyGross.reduce((s, g) => s + BigInt(g) * BigInt(g), 0n);
  const radicand = BigInt(n) * sumSquares - sum * sum; // n²·σ², ≥ 0
  const exactRoot = bigintSqrt(radicand);
  const root = exactRoot * exactRoot === radicand ? Number(exactRoot) : Math.sqrt(Number(radicand));
  const score = 1 - root / Number(sum);
  const clamped = Math.min(1, Math.max(0, score));
  // Round the 4th decimal half up; the epsilon absorbs binary noise around exact values such as 0.75.
  return Math.floor(clamped * 10_000 + 0.5 + 1e-9) / 10_000;
}

function bigintSqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = BigInt(Math.floor(Math.sqrt(Number(value))));
  while (x * x > value) x -= 1n;
  while ((x + 1n) * (x + 1n) <= value) x += 1n;
  return x;
}

/** Contract B settlement bucket of the published (4-decimal) share. */
export function settlementBucket(share: number | null): number | null {
  if (share === null) return null;
  if (share >= 0.98) return 95;
  if (share >= 0.9) return 85;
  if (share >= 0.75) return 70;
  if (share >= 0.5) return 55;
  return 35;
}

/** Contract B stability bucket of the published (4-decimal) stability. */
export function stabilityBucket(score: number | null): number | null {
  if (score === null) return null;
  if (score >= 0.8) return 90;
  if (score >= 0.6) return 75;
  if (score >= 0.4) return 60;
  return 40;
}

// ---------------------------------------------------------------- contracts

interface Totals {
  count: number;
  amount: number;
  onTime: number;
  judged: number;
}
const ZERO: Totals = { count: 0, amount: 0, onTime: 0, judged: 0 };
const plus = (a: Totals, b: Totals): Totals => ({
  count: a.count + b.count,
  amount: a.amount + b.amount,
  onTime: a.onTime + b.onTime,
  judged: a.judged + b.judged,
});

/** Everything both contracts need, from one pass over the days. */
function measure(input: ScoringInput) {
  const w = scoringWindows(input.asOf);
  const byMonth = new Map<string, Totals>(w.months.map((m) => [m, ZERO]));
  const d0 = w.asOfDay;
  const dayRanges = {
    cur30: [addDays(d0, -30), addDays(d0, -1)],
    prev30: [addDays(d0, -60), addDays(d0, -31)],
    cur90: [addDays(d0, -90), addDays(d0, -1)],
    prev90: [addDays(d0, -180), addDays(d0, -91)],
  } as const;
  const dayAmounts = { cur30: 0, prev30: 0, cur90: 0, prev90: 0 };
  for (const day of input.days) {
    const month = day.day.slice(0, 7);
    const totals = byMonth.get(month);
    if (totals) byMonth.set(month, plus(totals, day));
    for (const key of Object.keys(dayRanges) as (keyof typeof dayRanges)[]) {
      const [from, to] = dayRanges[key];
      if (day.day >= from && day.day <= to) dayAmounts[key] += day.amount;
    }
  }
  // Months averaged over: the window's months from the first counted month on (a month before it is not 0).
  const first = input.firstCountedMonth;
  const activeMonths = first === null ? [] : w.months.filter((m) => m >= first);
  const window = w.months.reduce((t, m) => plus(t, byMonth.get(m)!), ZERO);
  const last = byMonth.get(w.lastMonth)!;
  const previous = byMonth.get(w.previousMonth)!;
  const consistency = roundedRatio(window.onTime, window.judged, 4);
  const stable = stability(activeMonths.map((m) => byMonth.get(m)!.amount));
  return { w, byMonth, activeMonths, window, last, previous, dayAmounts, consistency, stable };
}

export function scoreContractA(input: ScoringInput): ScoringA {
  const m = measure(input);
  const n = m.activeMonths.length;
  return {
    averageMonthlyGrossAmount: roundedQuotient(m.window.amount, n),
    averageMonthlyTransactionCount: roundedQuotient(m.window.count, n),
    avgTicketSize: roundedQuotient(m.window.amount, m.window.count),
    growth30d: growthRatio(m.dayAmounts.cur30, m.dayAmounts.prev30),
    growth90d: growthRatio(m.dayAmounts.cur90, m.dayAmounts.prev90),
    settlementConsistencyScore: m.consistency,
    transactionStabilityScore: m.stable,
    monthsInWindow: n,
  };
}

export function scoreContractB(input: ScoringInput): ScoringB {
  const m = measure(input);
  return {
    averageMonthlyGrossAmount: m.last.amount,
    averageMonthlyTransactionCount: m.last.count,
    avgTicketSize: roundedQuotient(m.last.amount, m.last.count),
    growth30d: growthPercent(m.last.amount, m.previous.amount),
    settlementConsistencyScore: settlementBucket(m.consistency),
    transactionStabilityScore: stabilityBucket(m.stable),
    monthsSampled: m.w.months.filter((month) => m.byMonth.get(month)!.count > 0).length,
  };
}
