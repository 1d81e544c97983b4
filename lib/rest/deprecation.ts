/**
 * Deprecated REST operations (docs/api/versioning.md): a route that declares `deprecated` keeps working until its
 * sunset and says so on every answer, with `Deprecation` (RFC 9745: when it was deprecated, a structured-field date),
 * `Sunset` (RFC 8594: the HTTP date after which it may be removed) and a `Link` with rel="deprecation" to the policy;
 * the OpenAPI document marks the operation `deprecated`.
 */

/** The least time between deprecating an operation or field and removing it (docs/api/versioning.md). */
export const MIN_DEPRECATION_DAYS = 180;

export interface RouteDeprecation {
  /** The day it was deprecated, YYYY-MM-DD (UTC). */
  since: string;
  /** The first day it may be gone, YYYY-MM-DD (UTC): at least MIN_DEPRECATION_DAYS after `since`. */
  sunset: string;
  /** What to use instead, for the reference and the changelog. */
  replacement: string;
}

/** Where the Link header points: the reference, whose "Versioning and deprecation" section states the policy (docs/api/versioning.md). */
export const DEPRECATION_POLICY_LINK = '</docs>; rel="deprecation"; type="text/html"';

const DAY_MS = 86_400_000;

function day(text: string, what: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    throw new Error(`${what} must be a date YYYY-MM-DD, not ${JSON.stringify(text)}`);
  }
  return Date.parse(`${text}T00:00:00Z`);
}

/** Throws unless the deprecation keeps the promise: dates that parse, and a sunset at least MIN_DEPRECATION_DAYS later. */
export function checkDeprecation(name: string, deprecation: RouteDeprecation): void {
  const since = day(deprecation.since, `${name}: deprecated.since`);
  const sunset = day(deprecation.sunset, `${name}: deprecated.sunset`);
  if (sunset - since < MIN_DEPRECATION_DAYS * DAY_MS) {
    throw new Error(`${name}: a deprecated operation lives at least ${MIN_DEPRECATION_DAYS} days (sunset ${deprecation.sunset})`);
  }
  if (deprecation.replacement.trim() === '') throw new Error(`${name}: deprecated.replacement must say what to use instead`);
}

/** The headers every answer of a deprecated operation carries. */
export function deprecationHeaders(deprecation: RouteDeprecation): Record<string, string> {
  return {
    deprecation: `@${Math.floor(day(deprecation.since, 'since') / 1000)}`,
    sunset: new Date(day(deprecation.sunset, 'sunset')).toUTCString(),
    link: DEPRECATION_POLICY_LINK,
  };
}
