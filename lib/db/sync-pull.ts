import type { Knex } from '@mikro-orm/postgresql';
import { BadInputError } from '../errors/app-error';

/** Largest page a device pull may ask for (core-api.md §8: limit 200). */
export const SYNC_PULL_MAX_LIMIT = 200;

export interface SyncPage {
  rows: Record<string, unknown>[];
  /** The watermark the device sends back as `since`: every version at or below it has been delivered. */
  watermark: string;
  hasMore: boolean;
}

/**
 * One page of a merchant's changed rows of a synced table (a `sync_version` column set by the schema's
 * assign_sync_version trigger: (top-level xid << 20) + ordinal in the transaction).
 *
 * Only versions below (pg_snapshot_xmin << 20) are read, in the same statement (one snapshot): every
 * transaction with a smaller xid has finished, so those rows are final, and any transaction still running or
 * starting later has an xid ≥ xmin, hence versions above the bound. Paging by the last delivered version (or, on
 * the last page, bound − 1) therefore neither skips nor repeats a row version, whatever the commit order of
 * concurrent writers. Rows written later by still-open transactions arrive on a later pull. Soft-deleted rows
 * are included (with `deleted_at`) so devices learn of deletions.
 */
export async function pullSyncPage(
  db: Knex,
  table: string,
  columns: string[],
  merchantId: string,
  since: bigint,
  limit: number,
): Promise<SyncPage> {
  const result = await db.raw(
    `select b.hi::text as hi, r.*
       from (select pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 20 as hi) b
       left join lateral (
         select ${columns.join(', ')}, t.sync_version::text as sync_version
           from ${table} t
          where t.merchant_id = ? and t.sync_version > ? and t.sync_version < b.hi
          order by t.sync_version
          limit ?
       ) r on true`,
    [merchantId, since.toString(), limit + 1],
  );
  const all = result.rows as Record<string, unknown>[];
  const hi = BigInt(all[0].hi as string);
  const rows = all
    .filter((row) => row.sync_version != null)
    .map(({ hi: _hi, ...row }) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          key.endsWith('_at') && value != null ? pgTime(value as string).toISOString() : value,
        ]),
      ),
    );
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const bound = hi - 1n > since ? hi - 1n : since;
  return { rows: page, watermark: hasMore ? String(page[page.length - 1].sync_version) : bound.toString(), hasMore };
}

/** A watermark argument: the decimal integer an earlier page returned, "0" for a full pull. */
export function parseWatermark(since: string): bigint {
  if (!/^[0-9]{1,19}$/.test(since) || BigInt(since) > 9223372036854775807n) throw new BadInputError('since must be a non-negative integer');
  return BigInt(since);
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
