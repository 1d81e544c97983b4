/**
 * Asia/Jakarta calendar arithmetic for Contract A (partner-api.md §2), on the shared zone calendar
 * (lib/time/zoned-time.ts): offsets from the IANA database, no fixed +07:00.
 */
import { ZonedCalendar, addDays, mondayOf, nextMonthStart } from '@lib/time/zoned-time';

const JAKARTA = new ZonedCalendar('Asia/Jakarta');

export { addDays };

/** The Jakarta calendar date (YYYY-MM-DD) of an instant. */
export const jakartaDate = (instant: Date): string => JAKARTA.dateOf(instant);

/** RFC 3339 of an instant in Jakarta local time with its offset: 2026-11-02T07:30:00+07:00 (milliseconds only when not 0). */
export const jakartaIso = (instant: Date): string => JAKARTA.iso(instant);

/** The instant of 00:00 Jakarta time on a calendar date. */
export const jakartaMidnight = (date: string): Date => JAKARTA.midnight(date);

export type Period = 'daily' | 'weekly' | 'monthly';

export interface PeriodWindow {
  /** 00:00 Jakarta on the first day (inclusive). */
  start: Date;
  /** 00:00 Jakarta on the day after the last day (exclusive): what the query uses. */
  end: Date;
  /** RFC 3339 +07:00 of start. */
  startAt: string;
  /** RFC 3339 +07:00 of the window's last millisecond (23:59:59.999 of the last day). */
  endAt: string;
}

/** The window containing anchor (a Jakarta date): that day; its Monday–Sunday week; its calendar month. */
export function periodWindow(period: Period, anchor: string): PeriodWindow {
  const first = period === 'daily' ? anchor : period === 'weekly' ? mondayOf(anchor) : `${anchor.slice(0, 7)}-01`;
  const next = period === 'daily' ? addDays(anchor, 1) : period === 'weekly' ? addDays(first, 7) : nextMonthStart(anchor);
  const start = jakartaMidnight(first);
  const end = jakartaMidnight(next);
  return { start, end, startAt: jakartaIso(start), endAt: jakartaIso(new Date(end.getTime() - 1)) };
}
