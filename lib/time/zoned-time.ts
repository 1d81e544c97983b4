/**
 * Calendar arithmetic in an IANA time zone: offsets come from the zone database through Intl.DateTimeFormat
 * (Indonesian zones have no daylight saving, but nothing here assumes a fixed offset). Used for the partner
 * API's Asia/Jakarta windows and the core API's Asia/Makassar periods.
 */
export class ZonedCalendar {
  private readonly format: Intl.DateTimeFormat;
  /** The zone's offset per quarter hour (UTC), or null where it changes within one: Intl is asked twice per quarter. */
  private readonly offsets = new Map<number, { text: string; ms: number } | null>();

  constructor(readonly zone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
  }

  private partsOf(instant: Date): Record<string, string> {
    return Object.fromEntries(this.format.formatToParts(instant).map((p) => [p.type, p.value]));
  }

  /**
   * The zone's offset at `instant`, from the quarter hour it falls in: zones change offset at whole quarter hours
   * (UTC), so an offset found at both ends of a quarter holds within it. Formatting through Intl costs tens of
   * microseconds, which a list of 500 timestamps paid on the event loop (docs/benchmarks.md, mixed load).
   */
  private offsetAt(instant: Date): { text: string; ms: number } | null {
    const quarter = Math.floor(instant.getTime() / QUARTER_MS);
    let offset = this.offsets.get(quarter);
    if (offset === undefined) {
      const first = offsetIn(this.partsOf(new Date(quarter * QUARTER_MS)));
      const last = offsetIn(this.partsOf(new Date((quarter + 1) * QUARTER_MS - 1)));
      offset = first === last ? { text: first, ms: offsetMs(first) } : null;
      if (this.offsets.size >= MAX_QUARTERS) this.offsets.clear();
      this.offsets.set(quarter, offset);
    }
    return offset;
  }

  /** "+08:00" for the zone at `instant`. */
  offsetOf(instant: Date): string {
    return this.offsetAt(instant)?.text ?? offsetIn(this.partsOf(instant));
  }

  /** The local calendar date (YYYY-MM-DD) of an instant. */
  dateOf(instant: Date): string {
    return this.iso(instant).slice(0, 10);
  }

  /** RFC 3339 of an instant in local time with the zone's offset (milliseconds only when not 0). */
  iso(instant: Date): string {
    const ms = instant.getUTCMilliseconds();
    const fraction = ms ? `.${String(ms).padStart(3, '0')}` : '';
    const offset = this.offsetAt(instant);
    if (!offset) {
      const p = this.partsOf(instant);
      return `${p.year.padStart(4, '0')}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${fraction}${offsetIn(p)}`;
    }
    // The local wall clock is the UTC clock of the instant moved by the offset.
    const local = new Date(instant.getTime() + offset.ms).toISOString();
    const year = local.length > 24 ? local.slice(1, local.length - 20) : local.slice(0, 4);
    return `${year.padStart(4, '0')}${local.slice(-20, -5)}${fraction}${offset.text}`;
  }

  /** The instant of local 00:00 on a calendar date. */
  midnight(date: string): Date {
    const guess = new Date(`${date}T00:00:00Z`);
    // Offset at the guess, then re-checked at the result (a zone whose offset changed that day would differ).
    let instant = new Date(guess.getTime() - offsetMinutes(this.offsetOf(guess)) * 60_000);
    instant = new Date(guess.getTime() - offsetMinutes(this.offsetOf(instant)) * 60_000);
    return instant;
  }
}

/** The offset in a formatToParts result: "+08:00" from "GMT+08:00" ("GMT" alone is +00:00). */
function offsetIn(parts: Record<string, string>): string {
  const name = parts.timeZoneName.replace('GMT', '');
  return name === '' ? '+00:00' : name;
}

const QUARTER_MS = 15 * 60_000;
/** Quarter hours remembered per zone (about 100 days of timestamps) before the memory starts again. */
const MAX_QUARTERS = 10_000;

/** "+08:00" or "+07:07:12" (a zone's local mean time before standard time) in milliseconds. */
function offsetMs(offset: string): number {
  const [hours, minutes, seconds = '0'] = offset.slice(1).split(':');
  return (offset[0] === '-' ? -1 : 1) * ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
}

const offsetMinutes = (offset: string) => (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));

/** Calendar arithmetic on YYYY-MM-DD (UTC used only as a proleptic calendar). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The first day of the month after the one `date` is in. */
export function nextMonthStart(date: string): string {
  const d = new Date(`${date.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

/** The Monday of the Monday–Sunday week containing `date`. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

/** A wall-clock time of day (24 h), e.g. a daily job's local run time. */
export interface LocalTime {
  hour: number;
  minute: number;
}

/** The instant of `time` (local to `calendar`) on the calendar date `date` (YYYY-MM-DD). */
export function wallClockOn(calendar: ZonedCalendar, date: string, time: LocalTime): Date {
  // Local midnight from the zone database, then the wall-clock time of that day (Indonesia keeps no daylight saving).
  return new Date(calendar.midnight(date).getTime() + (time.hour * 60 + time.minute) * 60_000);
}

/** The first instant strictly after `instant` whose wall clock in `calendar` reads `time`. */
export function nextWallClock(calendar: ZonedCalendar, instant: Date, time: LocalTime): Date {
  const date = calendar.dateOf(instant);
  const today = wallClockOn(calendar, date, time);
  return today.getTime() > instant.getTime() ? today : wallClockOn(calendar, addDays(date, 1), time);
}
