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

/**
 * The monthly partitions of `transactions` and `payment_events` (docs/decisions/0208-partitioned-history.md): the SQL
 * function `"transaction".ensure_month_partitions` (Migration20261130100000_partitioned_history.ts) does the work.
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
}
