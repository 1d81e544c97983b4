import type { Knex } from '@mikro-orm/postgresql';
import { BadInputError } from '../errors/app-error';

/** Largest page a device pull may ask for (core-api.md §8: limit 200). */
export const SYNC_PULL_MAX_LIMIT = 200;

/**
 * The tag of a schema's "open writer" advisory locks (the first int4 key is `(tag << 10) | (ms >> 32)`, the second
 * the low 32 bits of the mark in epoch milliseconds). The numbers are fixed in the migrations that create each
 * schema's `stamp_sync_write` trigger function (Migration20261126100000_sync_time); they must stay equal.
 */
export const SYNC_WRITER_TAG = { catalog: 23553, outlet: 23554 } as const;

/** The largest epoch millisecond a JavaScript Date holds (year 275760). */
const MAX_MILLIS = 8_640_000_000_000_000;

export interface SyncPage {
  rows: Record<string, unknown>[];
  /** Epoch milliseconds the device sends back as `since`: every row stamped at or before it has been delivered. */
  serverTime: number;
  hasMore: boolean;
}

export interface SyncPullQuery {
  table: string;
  /** Selected columns, `t.`-qualified; must include `t.updated_at`. */
  columns: string[];
  /** The schema's open-writer tag (SYNC_WRITER_TAG). */
  writerTag: number;
  merchantId: string;
  /** Epoch milliseconds: rows stamped in a later millisecond are returned. */
  since: number;
  limit: number;
  /** Only rows whose `column` is one of `ids` (a member's outlets, decision 0061); absent or null: every row. */
  outlets?: { column: string; ids: string[] } | null;
}

/**
 * One page of a merchant's changed rows of a synced table, by write time in epoch milliseconds
 * (docs/decisions/0055-pos-sync.md).
 *
 * Every synced row's `updated_at` is stamped by the schema's `stamp_sync_write` trigger with clock_timestamp() at
 * the write, and every transaction that writes a synced row first holds a shared advisory lock (until it ends)
 * whose key carries the millisecond of its first such write (its "mark"). All its stamps are at or after its mark.
 *
 * First statement: `bound` = the earliest of the clock now and the mark of every writer still open (pg_locks). A
 * second statement (a later snapshot, READ COMMITTED) reads rows stamped before `bound`'s millisecond. Such a row
 * is final: its writer took its mark before the first statement read the clock, so it was either open then (its
 * mark, hence the bound, is at or before the row's millisecond: a contradiction) or had already committed and is
 * visible to the later snapshot; writers starting later stamp after the clock reading. `server_time` is the last
 * fully delivered millisecond, so sending it back as `since` neither skips nor repeats a row, whatever the order in
 * which writers commit. Soft-deleted rows are included (with `deleted_at`) so devices learn of deletions.
 *
 * Paging ends on a millisecond boundary: when more rows remain, the page drops its trailing rows of the millisecond
 * the next page starts in. A single millisecond with more rows than the limit is returned whole (then a page is
 * larger than `limit`).
 */
export async function pullSyncPage(db: Knex, query: SyncPullQuery): Promise<SyncPage> {
  const { table, columns, writerTag, merchantId, since, limit, outlets } = query;
  const marks = await db.raw(
    `select least(
              floor(extract(epoch from clock_timestamp()) * 1000)::bigint,
              (select min(((l.classid::bigint & 1023) << 32) | l.objid::bigint)
                 from pg_locks l
                where l.locktype = 'advisory' and l.objsubid = 2 and (l.classid::bigint >> 10) = ?
                  and l.database = (select oid from pg_database where datname = current_database()))
            )::text as bound`,
    [writerTag],
  );
  const bound = Number((marks.rows as { bound: string }[])[0].bound);
  // Rows stamped in a millisecond before the bound's are final; the bound's own millisecond may still grow.
  const last = bound - 1;
  if (since >= last) return { rows: [], serverTime: last, hasMore: false };
  const select = (from: number, before: number, max: number) =>
    db.raw(
      `select ${columns.join(', ')} from ${table} t
        where t.merchant_id = ? and t.updated_at >= ?::timestamptz and t.updated_at < ?::timestamptz
          ${outlets ? `and t.${outlets.column} = any(?::uuid[])` : ''}
        order by t.updated_at, t.id limit ?`,
      [merchantId, iso(from), iso(before), ...(outlets ? [outlets.ids] : []), max],
    );
  const rows = ((await select(since + 1, last + 1, limit + 1)).rows as Record<string, unknown>[]).map(toWireRow);
  if (rows.length <= limit) return { rows, serverTime: last, hasMore: false };
  const next = millisOf(rows[limit]);
  const page = rows.slice(0, limit).filter((row) => millisOf(row) < next);
  if (page.length > 0) return { rows: page, serverTime: next - 1, hasMore: true };
  // More than `limit` rows in one millisecond: that millisecond whole.
  const whole = ((await select(next, next + 1, Number.MAX_SAFE_INTEGER)).rows as Record<string, unknown>[]).map(toWireRow);
  return { rows: whole, serverTime: next, hasMore: next < last };
}

/** A `since` argument: epoch milliseconds as a decimal integer ("0" or "" for a full pull). */
export function parseSince(since: string): number {
  if (since === '') return 0;
  if (!/^[0-9]{1,16}$/.test(since) || Number(since) > MAX_MILLIS) throw new BadInputError('since must be epoch milliseconds');
  return Number(since);
}

function iso(millis: number): string {
  return new Date(Math.min(millis, MAX_MILLIS)).toISOString();
}

function millisOf(row: Record<string, unknown>): number {
  return Date.parse(row.updated_at as string);
}

/** `*_at` columns as ISO 8601 at millisecond precision (the device receives epoch milliseconds). */
function toWireRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, key.endsWith('_at') && value != null ? pgTime(value as string).toISOString() : value]),
  );
}

/**
 * A timestamptz as the subgraphs' connections return it (text, e.g. `2026-11-22 14:52:39.792+00`, since the ORM
 * keeps PostgreSQL's own format) as a Date.
 */
export function pgTime(value: Date | string): Date;
export function pgTime(value: Date | string | null): Date | null;
export function pgTime(value: Date | string | null): Date | null {
  if (value === null || value instanceof Date) return value;
  const iso = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`unreadable timestamp ${value}`);
  return date;
}
