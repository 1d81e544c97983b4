import { ZonedCalendar } from './zoned-time';

/**
 * How an API writes instants (docs/decisions/0017-local-time-through-iana-zones.md): one rule per API, applied to
 * every `date-time` field of its answers in one place (lib/rest/response-times.ts), never per route.
 */
export interface TimeRule {
  /** What the reference calls it: "UTC", "Asia/Jakarta". */
  readonly name: string;
  /** RFC 3339 of the instant as this rule writes it. */
  format(instant: Date): string;
}

/** UTC with milliseconds, as the GraphQL DateTime scalar writes it: 2026-11-28T18:03:03.261Z. */
export const UTC_TIMES: TimeRule = { name: 'UTC', format: (instant) => instant.toISOString() };

/**
 * Local time in an IANA zone with the zone's offset, milliseconds only when not 0: 2026-11-29T01:03:03.261+07:00
 * (ZonedCalendar.iso: the offset from the zone database, no fixed constant).
 */
export function zonedTimes(zone: string): TimeRule {
  const calendar = new ZonedCalendar(zone);
  return { name: zone, format: (instant) => calendar.iso(instant) };
}

/** The bank API and partner contract B: UTC. Partner contract A: Asia/Jakarta (+07:00). The app and core API: Asia/Makassar (+08:00). */
export const JAKARTA_TIMES = zonedTimes('Asia/Jakarta');
export const MAKASSAR_TIMES = zonedTimes('Asia/Makassar');

/**
 * An instant written by `rule`, from anything that names one (an RFC 3339 text with any offset, a Date); what names
 * none (an unparsable text, another type) is returned as it is.
 */
export function inTimeRule(rule: TimeRule, value: unknown): unknown {
  const instant = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  return instant && !Number.isNaN(instant.getTime()) ? rule.format(instant) : value;
}

/** Whether `text` is exactly what `rule` writes for the instant it names (the check of test/e2e/time-rule.spec.ts). */
export function followsTimeRule(rule: TimeRule, text: string): boolean {
  const instant = new Date(text);
  return !Number.isNaN(instant.getTime()) && rule.format(instant) === text;
}
