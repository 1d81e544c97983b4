import { Repository } from '@lib/db/repository';

/** The tables partitioned by month, and the column each is partitioned by. */
export const PARTITIONED_TABLES = { transactions: 'transaction_at', payment_events: 'received_at' } as const;
export type PartitionedTable = keyof typeof PARTITIONED_TABLES;

/** A partition and its rows (an estimate from the statistics, exact enough for an operator's overview). */
export interface PartitionRow {
  table: PartitionedTable;
  partition: string;
  bounds: string;
  estimated_rows: number;
}

/** An attached month of a partitioned table, as `archive` would find it. */
export interface AttachedMonth {
  partition: string;
  /** 'YYYY-MM-01'. */
  month: string;
  estimated_rows: number;
  /** `archive` already has a table of this name (the month was archived before and created again). */
  in_archive: boolean;
}

/** A month moved to the `archive` schema. */
export interface ArchivedRow {
  partition: string;
  archived_as: string;
  estimated_rows: number;
}

/** The schema old months are moved to (docs/decisions/0208-partitioned-history.md); the transaction role owns it. */
export const ARCHIVE_SCHEMA = 'archive';

/**
 * The monthly partitions of `transactions` and `payment_events` (docs/decisions/0208-partitioned-history.md): the SQL
 * functions `"transaction".ensure_month_partitions` (Migration20261130100000_partitioned_history.ts) and
 * `archive_month_partitions` (Migration20261206100000_archive_month_partitions.ts) do the work.
 */
export class PartitionRepository extends Repository {
  /**
   * Makes sure `table` has a partition for every Asia/Jakarta month from the month of `from` to the month of `now`
   * plus `monthsAhead`; the partitions created, with the rows each took over from a catch-all.
   */
  async ensure(
    table: PartitionedTable,
    from: Date,
    now: Date,
    monthsAhead: number,
  ): Promise<{ partition_name: string; moved_rows: string }[]> {
    return this.rows(
      `select partition_name, moved_rows::text from "transaction".ensure_month_partitions(?,
         (?::timestamptz at time zone 'Asia/Jakarta')::date, ((?::timestamptz at time zone 'Asia/Jakarta') + ? * interval '1 month')::date)`,
      [table, from, now, monthsAhead],
    );
  }

  /** Every partition of the partitioned tables, oldest first. */
  list(): Promise<PartitionRow[]> {
    return this.rows<PartitionRow>(
      `select p.relname as table, c.relname as partition, pg_get_expr(c.relpartbound, c.oid) as bounds,
              greatest(c.reltuples, 0)::bigint::int as estimated_rows
         from pg_inherits i
         join pg_class c on c.oid = i.inhrelid
         join pg_class p on p.oid = i.inhparent
        where p.relnamespace = '"transaction"'::regnamespace and p.relname = any(?)
        order by p.relname, c.relname like '%\\_history' desc, c.relname like '%\\_future', c.relname`,
      [Object.keys(PARTITIONED_TABLES)],
    );
  }

  /** The monthly partitions attached to `table`, oldest first. */
  attachedMonths(table: PartitionedTable): Promise<AttachedMonth[]> {
    return this.rows<AttachedMonth>(
      `select a.name as partition, a.month::text as month, a.rows::int as estimated_rows,
              to_regclass(format('${ARCHIVE_SCHEMA}.%I', a.name)) is not null as in_archive
         from "transaction".attached_months(format('"transaction".%I', ?::text)::regclass) a
        order by a.month`,
      [table],
    );
  }

  /** Whether the `archive` schema exists. */
  async archiveSchemaExists(): Promise<boolean> {
    const [row] = await this.rows<{ exists: boolean }>(`select to_regnamespace(?) is not null as exists`, [ARCHIVE_SCHEMA]);
    return row.exists;
  }

  /**
   * Proves, with a validated CHECK constraint, that `table`'s history holds nothing from `firstKept` ('YYYY-MM-01') on:
   * adding it locks the history for a catalog change (waiting at most `lockTimeout`), validating it scans the history
   * without blocking its reads and writes. Two transactions, so the scan never runs under the exclusive lock.
   */
  async boundHistory(table: PartitionedTable, firstKept: string, lockTimeout: string): Promise<void> {
    for (const validate of [false, true]) {
      await this.sqlTransaction(async (tx) => {
        await tx.rows(`select set_config('lock_timeout', ?, true)`, [lockTimeout]);
        await tx.rows(`select "transaction".bound_history(?, ?::date, ?)`, [table, firstKept, validate]);
      });
    }
  }

  /**
   * Detaches every month of `table` before `before` ('YYYY-MM-01') into the `archive` schema and re-attaches the
   * history up to the first month left, in one transaction whose locks wait at most `lockTimeout`; the months moved.
   */
  archive(table: PartitionedTable, before: string, lockTimeout: string): Promise<ArchivedRow[]> {
    return this.sqlTransaction(async (tx) => {
      await tx.rows(`select set_config('lock_timeout', ?, true)`, [lockTimeout]);
      return tx.rows<ArchivedRow>(
        `select partition_name as partition, archived_as, estimated_rows::int from "transaction".archive_month_partitions(?, ?::date)`,
        [table, before],
      );
    });
  }

  /** The bounds of `table`'s history partition. */
  async historyBounds(table: PartitionedTable): Promise<string> {
    const [row] = await this.rows<{ bounds: string }>(
      `select pg_get_expr(c.relpartbound, c.oid) as bounds from pg_class c
        where c.relnamespace = '"transaction"'::regnamespace and c.relname = ?`,
      [`${table}_history`],
    );
    return row.bounds;
  }

  /** The bounds a history partition attached up to the start of `month` ('YYYY-MM-01') has, as historyBounds prints them. */
  async historyBoundsTo(month: string): Promise<string> {
    const [row] = await this.rows<{ bounds: string }>(
      `select format('FOR VALUES FROM (MINVALUE) TO (%L)', "transaction".month_start(?::date)) as bounds`,
      [month],
    );
    return row.bounds;
  }

  /** The tables of the `archive` schema (archived months, unless an operator put others there), by name. */
  listArchived(): Promise<{ table: string; estimated_rows: number }[]> {
    return this.rows(
      `select c.relname as table, greatest(c.reltuples, 0)::bigint::int as estimated_rows
         from pg_class c where c.relnamespace = to_regnamespace(?) and c.relkind in ('r', 'p')
        order by c.relname`,
      [ARCHIVE_SCHEMA],
    );
  }
}
