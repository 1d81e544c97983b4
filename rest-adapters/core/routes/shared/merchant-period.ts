import { ZonedCalendar, addDays, mondayOf, nextMonthStart } from '@lib/time/zoned-time';

/** The core API's calendar: periods are Asia/Makassar days, weeks, months and years (core-api.md §4). */
const MAKASSAR = new ZonedCalendar('Asia/Makassar');

export const PERIODS = ['today', 'week', 'month', 'year'] as const;
export type MerchantPeriod = (typeof PERIODS)[number];

export interface PeriodBounds {
  /** Local 00:00 of the first day (inclusive). */
  start: Date;
  /** Local 00:00 of the day after the last (exclusive): what the query uses. */
  end: Date;
  startAt: string;
  /** The period's last millisecond, 23:59:59.999 of its last day. */
  endAt: string;
}

/** today; the Monday–Sunday week; the calendar month; the calendar year — containing `now`, in Asia/Makassar. */
export function makassarPeriod(period: MerchantPeriod, now: Date): PeriodBounds {
  const today = MAKASSAR.dateOf(now);
  const first =
    period === 'today'
      ? today
      : period === 'week'
        ? mondayOf(today)
        : period === 'month'
          ? `${today.slice(0, 7)}-01`
          : `${today.slice(0, 4)}-01-01`;
  const next =
    period === 'today'
      ? addDays(today, 1)
      : period === 'week'
        ? addDays(first, 7)
        : period === 'month'
          ? nextMonthStart(today)
          : `${Number(today.slice(0, 4)) + 1}-01-01`;
  const start = MAKASSAR.midnight(first);
  const end = MAKASSAR.midnight(next);
  return { start, end, startAt: MAKASSAR.iso(start), endAt: MAKASSAR.iso(new Date(end.getTime() - 1)) };
}
