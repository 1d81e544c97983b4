/**
 * Asia/Jakarta calendar arithmetic for Contract A (partner-api.md §2): the zone's offset comes from the IANA
 * database through Intl.DateTimeFormat (WIB is +07:00 without daylight saving, but nothing here assumes it).
 */
const ZONE = 'Asia/Jakarta';
const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'longOffset',
});

function partsOf(instant: Date): Record<string, string> {
  return Object.fromEntries(parts.formatToParts(instant).map((p) => [p.type, p.value]));
}

/** "+07:00" for Jakarta at `instant` (from "GMT+07:00"; "GMT" alone is +00:00). */
function offsetOf(instant: Date): string {
  const name = partsOf(instant).timeZoneName.replace('GMT', '');
  return name === '' ? '+00:00' : name;
}

const offsetMinutes = (offset: string) => (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));

/** The Jakarta calendar date (YYYY-MM-DD) of an instant. */
export function jakartaDate(instant: Date): string {
  const p = partsOf(instant);
  return `${p.year}-${p.month}-${p.day}`;
}

/** RFC 3339 of an instant in Jakarta local time with its offset: 2026-11-02T07:30:00+07:00 (milliseconds only when not 0). */
export function jakartaIso(instant: Date): string {
  const p = partsOf(instant);
  const ms = instant.getUTCMilliseconds();
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${ms ? `.${String(ms).padStart(3, '0')}` : ''}${offsetOf(instant)}`;
}

/** The instant of 00:00 Jakarta time on a calendar date. */
export function jakartaMidnight(date: string): Date {
  const guess = new Date(`${date}T00:00:00Z`);
  // Offset at the guess, then re-check at the result (a zone whose offset changed that day would differ).
  let instant = new Date(guess.getTime() - offsetMinutes(offsetOf(guess)) * 60_000);
  instant = new Date(guess.getTime() - offsetMinutes(offsetOf(instant)) * 60_000);
  return instant;
}

/** Calendar arithmetic on YYYY-MM-DD (UTC used only as a proleptic calendar). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

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
  let first: string;
  let next: string;
  if (period === 'daily') {
    first = anchor;
    next = addDays(anchor, 1);
  } else if (period === 'weekly') {
    const weekday = new Date(`${anchor}T00:00:00Z`).getUTCDay(); // 0 = Sunday
    first = addDays(anchor, -((weekday + 6) % 7));
    next = addDays(first, 7);
  } else {
    first = `${anchor.slice(0, 7)}-01`;
    const d = new Date(`${first}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() + 1);
    next = d.toISOString().slice(0, 10);
  }
  const start = jakartaMidnight(first);
  const end = jakartaMidnight(next);
  return { start, end, startAt: jakartaIso(start), endAt: jakartaIso(new Date(end.getTime() - 1)) };
}
