import { type LocalTime, ZonedCalendar, addDays, nextWallClock, wallClockOn } from '@lib/time/zoned-time';

export type { LocalTime } from '@lib/time/zoned-time';

/** Business days are calendar days in Asia/Makassar, as the app's transaction periods (core-api.md, decision 0017). */
export const BUSINESS_CALENDAR = new ZonedCalendar('Asia/Makassar');

/** The instant of `time` (local) on the calendar date `date` (YYYY-MM-DD). */
export function sendTimeOn(date: string, time: LocalTime, calendar: ZonedCalendar = BUSINESS_CALENDAR): Date {
  return wallClockOn(calendar, date, time);
}

/** The first send time strictly after `instant`. */
export function nextSendTime(instant: Date, time: LocalTime, calendar: ZonedCalendar = BUSINESS_CALENDAR): Date {
  return nextWallClock(calendar, instant, time);
}

/** The business day a send time reports, and its window [from, before): the app's period `today` at that time. */
export function businessDayOf(sendTime: Date, calendar: ZonedCalendar = BUSINESS_CALENDAR): { day: string; from: Date; before: Date } {
  const day = calendar.dateOf(sendTime);
  return { day, from: calendar.midnight(day), before: calendar.midnight(addDays(day, 1)) };
}
