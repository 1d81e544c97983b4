import type { EntityManager } from '@mikro-orm/postgresql';
import { PARTITIONED_TABLES, type PartitionRow, PartitionRepository, type PartitionedTable } from './partition.repository';

export interface EnsuredPartitions {
  /** The partitions created, and how many rows each took over from a catch-all (history or future). */
  created: { table: PartitionedTable; partition: string; moved_rows: number }[];
}

/**
 * Keeps monthly partitions of transactions and payment events ready (docs/decisions/0208-partitioned-history.md): the
 * current Asia/Jakarta month and `monthsAhead` after it, and, with `from`, every month back to `from`'s. Idempotent and
 * safe to run from several processes at once (one works per table at a time; the others then find nothing to do).
 * Run at the transaction process's start, every PARTITION_ENSURE_INTERVAL_MS, and by `ops partitions:ensure`.
 */
export async function ensurePartitions(
  em: EntityManager,
  monthsAhead: number,
  options: { now?: Date; from?: Date } = {},
): Promise<EnsuredPartitions> {
  const repo = new PartitionRepository(em);
  const now = options.now ?? new Date();
  const from = options.from && options.from < now ? options.from : now;
  const created: EnsuredPartitions['created'] = [];
  for (const table of Object.keys(PARTITIONED_TABLES) as PartitionedTable[]) {
    for (const row of await repo.ensure(table, from, now, monthsAhead)) {
      created.push({ table, partition: row.partition_name, moved_rows: Number(row.moved_rows) });
    }
  }
  return { created };
}

/** Every partition of the partitioned tables with its bounds and estimated rows (`ops partitions:list`). */
export function listPartitions(em: EntityManager): Promise<PartitionRow[]> {
  return new PartitionRepository(em).list();
}
