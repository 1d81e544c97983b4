import { BadInputError } from '@lib/errors/app-error';
import { ZonedCalendar, addDays, nextMonthStart } from '@lib/time/zoned-time';

/** The app's calendar: months are Asia/Makassar calendar months, as `/merchant/transactions?period=month` (core-api.md §4). */
export const STATEMENT_CALENDAR = new ZonedCalendar('Asia/Makassar');

/** The first month a statement may be asked for. */
export const FIRST_MONTH = '2020-01';

export interface MonthBounds {
  /** YYYY-MM. */
  month: string;
  /** YYYY-MM-01. */
  firstDay: string;
  /** YYYY-MM-01 of the next month. */
  nextFirstDay: string;
  /** Local 00:00 of the first day (inclusive) and of the next month's first day (exclusive). */
  start: Date;
  end: Date;
  /** Every calendar day of the month, YYYY-MM-DD. */
  days: string[];
}

const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function monthBounds(month: string): MonthBounds {
  const firstDay = `${month}-01`;
  const nextFirstDay = nextMonthStart(firstDay);
  const days: string[] = [];
  for (let day = firstDay; day < nextFirstDay; day = addDays(day, 1)) days.push(day);
  return {
    month,
    firstDay,
    nextFirstDay,
    start: STATEMENT_CALENDAR.midnight(firstDay),
    end: STATEMENT_CALENDAR.midnight(nextFirstDay),
    days,
  };
}

/** The month that contains `instant` in Asia/Makassar. */
export function monthOf(instant: Date): string {
  return STATEMENT_CALENDAR.dateOf(instant).slice(0, 7);
}

/** The month before `month` (YYYY-MM). */
export function previousMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
}

/** A month a statement may be asked for: YYYY-MM from FIRST_MONTH to the current month (to date); BAD_USER_INPUT otherwise. */
export function requestableMonth(month: string, now: Date): MonthBounds {
  if (!MONTH_PATTERN.test(month)) throw new BadInputError('month must be a calendar month, YYYY-MM');
  if (month < FIRST_MONTH || month > monthOf(now)) throw new BadInputError(`month must be from ${FIRST_MONTH} to the current month`);
  return monthBounds(month);
}
