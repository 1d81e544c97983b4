/**
 * Calendar arithmetic in an IANA time zone: offsets come from the zone database through Intl.DateTimeFormat
 * (Indonesian zones have no daylight saving, but nothing here assumes a fixed offset). Used for the partner
 * API's Asia/Jakarta windows and the core API's Asia/Makassar periods.
 */
export class ZonedCalendar {
  private readonly format: Intl.DateTimeFormat;

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

  /** "+08:00" for the zone at `instant`. */
  offsetOf(instant: Date): string {
    return offsetIn(this.partsOf(instant));
  }

  /** The local calendar date (YYYY-MM-DD) of an instant. */
  dateOf(instant: Date): string {
    const p = this.partsOf(instant);
    return `${p.year}-${p.month}-${p.day}`;
  }

  /** RFC 3339 of an instant in local time with the zone's offset (milliseconds only when not 0); one formatToParts. */
  iso(instant: Date): string {
    const p = this.partsOf(instant);
    const ms = instant.getUTCMilliseconds();
    return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${ms ? `.${String(ms).padStart(3, '0')}` : ''}${offsetIn(p)}`;
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
