import { nextMonthStart } from '@lib/time/zoned-time';
import { STATEMENT_CALENDAR } from './statement-month';

export interface LocalTime {
  hour: number;
  minute: number;
}

/** `time` (local, Asia/Makassar) on `firstDay` (YYYY-MM-01). */
function runOn(firstDay: string, time: LocalTime): Date {
  return new Date(STATEMENT_CALENDAR.midnight(firstDay).getTime() + (time.hour * 60 + time.minute) * 60_000);
}

/** The first monthly run (the first day of a month at `time`, Asia/Makassar) strictly after `instant`. */
export function nextMonthlyRun(instant: Date, time: LocalTime): Date {
  const thisMonth = `${STATEMENT_CALENDAR.dateOf(instant).slice(0, 7)}-01`;
  const run = runOn(thisMonth, time);
  return run.getTime() > instant.getTime() ? run : runOn(nextMonthStart(thisMonth), time);
}
