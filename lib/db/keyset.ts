import { BadInputError } from '../errors/app-error';
import { UUID_PATTERN } from '../federation/loaders';

/**
 * Keyset pages: a list ordered by a unique key is read `first + 1` rows at a time from after the last key
 * delivered, so a page stays stable while rows are inserted or updated. The cursor is opaque to clients
 * (base64url JSON, versioned); its forms below are part of the contracts that hand them out.
 */
export interface KeysetPage<T> {
  page: T[];
  hasMore: boolean;
  /** The cursor of the page's last row when there is more, else null. */
  nextCursor: string | null;
}

/** The page of rows read with `limit first + 1`: the extra row only says that there is more. */
export function keysetPage<T>(rows: readonly T[], first: number, cursorOf: (row: T) => string): KeysetPage<T> {
  const page = rows.slice(0, first);
  const hasMore = rows.length > first;
  return { page, hasMore, nextCursor: hasMore ? cursorOf(page[page.length - 1]) : null };
}

/** Cursor of a list ordered by id (UUIDv7). */
export function encodeIdCursor(id: string): string {
  return Buffer.from(JSON.stringify({ v: 1, id })).toString('base64url');
}

export function decodeIdCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: number; id?: string };
    if (value.v === 1 && typeof value.id === 'string' && UUID_PATTERN.test(value.id)) return value.id;
  } catch {
    // fall through
  }
  throw new BadInputError('invalid cursor');
}

/** The row's position: its time as PostgreSQL printed it (microseconds kept, which a Date would lose) and id. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** Cursor of a list ordered by (a timestamptz, id), newest first. */
export function encodeTimeIdCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify({ v: 1, at, id })).toString('base64url');
}

export function decodeTimeIdCursor(cursor: string): { at: string; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: number; at?: string; id?: string };
    if (
      value.v === 1 &&
      typeof value.id === 'string' &&
      UUID_PATTERN.test(value.id) &&
      typeof value.at === 'string' &&
      TIMESTAMP.test(value.at)
    ) {
      return { at: value.at, id: value.id };
    }
  } catch {
    // fall through
  }
  throw new BadInputError('invalid cursor');
}
