import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError } from '@lib/errors/app-error';
import { ZonedCalendar } from '@lib/time/zoned-time';
import { WINDOW_MONTHS, addMonths } from '../scoring/scoring';
import { ARCHIVE_SCHEMA, PARTITIONED_TABLES, type PartitionRow, PartitionRepository, type PartitionedTable } from './partition.repository';

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

/** The tables of the `archive` schema, with their estimated rows (`ops partitions:list`). */
export function listArchived(em: EntityManager): Promise<{ table: string; estimated_rows: number }[]> {
  return new PartitionRepository(em).listArchived();
}

/**
 * Months that stay attached before the current one, whatever `--before` says (docs/decisions/0208-partitioned-history.md):
 * scoring's window (its twelve months before the current one are read from the transactions when a day's rollup is
 * rebuilt) and a year of history for merchants and partners.
 */
export const ARCHIVE_MIN_ONLINE_MONTHS = WINDOW_MONTHS;
/**
 * How long archiving waits for a lock before it gives up (nothing changed) and, up to `attempts` times, tries again
 * after `pauseMs`.
 */
export interface ArchiveLockPatience {
  timeoutMs: number;
  attempts: number;
  pauseMs: number;
}
const ARCHIVE_LOCK_PATIENCE: ArchiveLockPatience = { timeoutMs: 2_000, attempts: 3, pauseMs: 1_000 };

const JAKARTA = new ZonedCalendar('Asia/Jakarta');
const MONTH = /^([0-9]{4})-(0[1-9]|1[0-2])$/;

/** `--before` refused: nothing was changed. */
export class ArchiveRefusedError extends BadInputError {}

/** The latest `before` month (YYYY-MM) archiving accepts at `now`: the Asia/Jakarta month ARCHIVE_MIN_ONLINE_MONTHS back. */
export function latestArchiveBefore(now: Date): string {
  return addMonths(JAKARTA.dateOf(now).slice(0, 7), -ARCHIVE_MIN_ONLINE_MONTHS);
}

/** Refuses a `before` that is not a month (YYYY-MM) or that would take a month of the minimum online window. */
export function checkArchiveBefore(before: string, now: Date): void {
  if (!MONTH.test(before)) throw new ArchiveRefusedError(`--before must be a month, YYYY-MM (got "${before}")`);
  const latest = latestArchiveBefore(now);
  if (before > latest)
    throw new ArchiveRefusedError(
      `--before ${before} would archive a month of the last ${ARCHIVE_MIN_ONLINE_MONTHS} before the current one, which stay online: ` +
        `the latest month allowed is ${latest}`,
    );
}

export interface ArchivedMonths {
  /** Months before this one (YYYY-MM, Asia/Jakarta) are archived. */
  before: string;
  dry_run: boolean;
  archive_schema: string;
  /** The months moved (with --dry-run: that would be), per table, oldest first. */
  archived: { table: PartitionedTable; partition: string; archived_as: string; estimated_rows: number }[];
  /** The history catch-all of each table, with its bounds after archiving (with --dry-run: as it would be). */
  history: { table: PartitionedTable; partition: string; bounds: string }[];
}

/**
 * `ops partitions:archive` (docs/decisions/0208-partitioned-history.md): every monthly partition of transactions and
 * payment events whose month is before `before` is detached and moved to the `archive` schema, and the history
 * catch-all is attached again up to the first month left, so a back-dated row of an archived month lands there.
 * Nothing is dropped; key rows stay, so de-duplication stays all-time. Idempotent. Per table: the history's new bound
 * is proven first (a CHECK constraint, validated without blocking writes), then one short transaction, under the
 * advisory lock ensurePartitions takes and the table's ACCESS EXCLUSIVE lock, makes only catalog changes. A lock not
 * had within the lock timeout (ARCHIVE_LOCK_PATIENCE unless `options.lock`) rolls that transaction back (nothing
 * changed) and it is tried again.
 * The `archive` schema must exist (the ops task creates it as the admin).
 */
export async function archivePartitions(
  em: EntityManager,
  before: string,
  options: { now?: Date; dryRun?: boolean; lock?: ArchiveLockPatience } = {},
): Promise<ArchivedMonths> {
  const lock = options.lock ?? ARCHIVE_LOCK_PATIENCE;
  const lockTimeout = `${lock.timeoutMs}ms`;
  checkArchiveBefore(before, options.now ?? new Date());
  const repo = new PartitionRepository(em);
  const beforeMonth = `${before}-01`;
  const dryRun = options.dryRun === true;
  const result: ArchivedMonths = { before, dry_run: dryRun, archive_schema: ARCHIVE_SCHEMA, archived: [], history: [] };
  const plans = [];
  for (const table of Object.keys(PARTITIONED_TABLES) as PartitionedTable[]) {
    const months = await repo.attachedMonths(table);
    const archived = months.filter((m) => m.month < beforeMonth);
    const firstKept = months.find((m) => m.month >= beforeMonth);
    if (archived.length > 0 && !firstKept) throw new Error(`archiving every month of ${table} before ${before} would leave none attached`);
    const taken = archived.find((m) => m.in_archive);
    if (taken)
      throw new Error(
        `${ARCHIVE_SCHEMA}.${taken.partition} exists already (its month was archived before and created again): rename or drop it first`,
      );
    plans.push({ table, archived, firstKept });
  }
  if (!dryRun && plans.some((p) => p.archived.length > 0) && !(await repo.archiveSchemaExists()))
    throw new Error(`schema "${ARCHIVE_SCHEMA}" does not exist (npm run ops -- partitions:archive creates it)`);

  for (const { table, archived, firstKept } of plans) {
    if (dryRun) {
      result.archived.push(
        ...archived.map((m) => ({
          table,
          partition: m.partition,
          archived_as: `${ARCHIVE_SCHEMA}.${m.partition}`,
          estimated_rows: m.estimated_rows,
        })),
      );
      result.history.push({
        table,
        partition: `${table}_history`,
        bounds: firstKept && archived.length > 0 ? await repo.historyBoundsTo(firstKept.month) : await repo.historyBounds(table),
      });
      continue;
    }
    if (archived.length > 0) {
      await withLockRetries(lock, () => repo.boundHistory(table, firstKept!.month, lockTimeout));
      const moved = await withLockRetries(lock, () => repo.archive(table, beforeMonth, lockTimeout));
      result.archived.push(...moved.map((m) => ({ table, ...m })));
    }
    result.history.push({ table, partition: `${table}_history`, bounds: await repo.historyBounds(table) });
  }
  return result;
}

/** `work`, tried again after a lock timeout (SQLSTATE 55P03: its transaction rolled back, nothing changed). */
async function withLockRetries<T>(lock: ArchiveLockPatience, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== '55P03') throw error;
      if (attempt >= lock.attempts)
        throw new Error(
          `no lock within ${lock.timeoutMs / 1000}s, ${lock.attempts} times (a long query or migration on the table?): ` +
            'that step changed nothing; run the command again',
          { cause: error },
        );
      await new Promise((resolve) => setTimeout(resolve, lock.pauseMs));
    }
  }
}
