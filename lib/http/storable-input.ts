import { MAX_JSON_DEPTH } from './request-limits';

/**
 * What PostgreSQL can store, checked where input enters (REST bodies, path and query values, GraphQL variables and
 * literals) so that it is refused as the caller's error instead of failing in the database as a 5xx
 * (docs/decisions/0007-input-validation-and-bounds.md).
 */

/** NUL (text cannot hold it) or a lone UTF-16 surrogate (not Unicode: jsonb refuses it, text would alter it). */
// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const UNSTORABLE_CHARACTER = /[\u0000\p{Cs}]/u;

/**
 * Why `value` (a string, or JSON: keys included) cannot be stored, or undefined when it can: an unstorable character,
 * or objects and arrays nested deeper than `maxDepth`.
 */
export function unstorableText(value: unknown, maxDepth = MAX_JSON_DEPTH, depth = 0): string | undefined {
  if (typeof value === 'string') return UNSTORABLE_CHARACTER.test(value) ? 'text must be Unicode without NUL characters' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= maxDepth) return `JSON must not nest deeper than ${maxDepth} levels`;
  for (const [key, inner] of Object.entries(value)) {
    const problem = unstorableText(key) ?? unstorableText(inner, maxDepth, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** Whether JSON text nests objects and arrays deeper than MAX_JSON_DEPTH (read without parsing, in one pass). */
export function jsonTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/** The first and last instants a date-time may name: years 0001 to 9999 in UTC (RFC 3339; PostgreSQL has no year 0). */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether an instant (milliseconds since the epoch) is one a date-time field may hold. */
export function storableInstant(ms: number): boolean {
  return ms >= FIRST_INSTANT && ms <= LAST_INSTANT;
}

/** Whether an RFC 3339 date or date-time (already checked as such) names an instant a field may hold. */
export function storableTime(text: string): boolean {
  // Date.parse knows no leap second; the second before it is as far from either bound.
  return storableInstant(Date.parse(text.replace(/(\d\d:\d\d):60/, '$1:59')));
}
