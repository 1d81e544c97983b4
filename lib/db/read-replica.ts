import type { FastifyBaseLogger } from 'fastify';
import type { Orm } from './orm';

/** How often the replica's lag is polled, ms; a poll without an answer within it counts as failed. */
export const REPLICA_POLL_MS = 1000;

/** Where the primary's WAL was at a poll: the replica lags by the age of the oldest such point it has not replayed. */
interface WalPoint {
  at: number;
  lsn: bigint;
}

/** A WAL location as PostgreSQL prints it (`16/B374D848`), as a number. */
function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * A subgraph's second ORM on a streaming replica (docs/decisions/0228-database-high-availability.md), polled each second: `ormFor`
 * answers it for a request that may read the replica (lib/federation/replica-reads.ts) while the last poll found the
 * lag within the bound, else the primary's. Closed with the subgraph's server or embedded copy.
 */
export class ReadReplica {
  /** What the last poll found; undefined before the first. */
  private usable?: boolean;
  /** The primary's WAL locations at the recent polls, oldest first. */
  private points: WalPoint[] = [];
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private closed = false;

  /** The replica of `primary` when a replica ORM was opened (a read URL is configured), else undefined. */
  static of(orm: Orm | undefined, primary: Orm, maxLagMs: number, log: FastifyBaseLogger): ReadReplica | undefined {
    return orm && new ReadReplica(orm, primary, maxLagMs, log.child({ component: 'read-replica' }));
  }

  private constructor(
    readonly orm: Orm,
    private readonly primary: Orm,
    private readonly maxLagMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.schedule(0);
  }

  /** The ORM of a request: the replica's when the request may read it and the replica is within the lag bound. */
  ormFor(mayReadReplica: boolean): Orm {
    return mayReadReplica && this.usable === true ? this.orm : this.primary;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.polling;
    await this.orm.close();
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => this.schedule(REPLICA_POLL_MS));
    }, delayMs);
    this.timer.unref();
  }

  /**
   * The lag is measured against the primary: the age of the oldest location the primary had reached at a poll that
   * the replica has not replayed yet (0 when it has replayed all of them). So a paused or slow replay and a cut
   * stream both count, and an idle primary (no new WAL) leaves a replica caught up.
   */
  private async poll(): Promise<void> {
    let reason: string | undefined;
    let lagMs: number | undefined;
    try {
      const [[primary], [replica]] = await withinPoll(
        Promise.all([
          this.primary.em.getConnection().execute<{ lsn: string }[]>('select pg_current_wal_lsn()::text as lsn', [], 'all'),
          this.orm.em
            .getConnection()
            .execute<{ recovery: boolean; lsn: string | null }[]>(
              'select pg_is_in_recovery() as recovery, pg_last_wal_replay_lsn()::text as lsn',
              [],
              'all',
            ),
        ]),
      );
      const now = Date.now();
      this.points = [
        ...this.points.filter((point) => now - point.at <= this.maxLagMs + 2 * REPLICA_POLL_MS),
        { at: now, lsn: lsnOf(primary.lsn) },
      ];
      const replayed = replica.lsn === null ? -1n : lsnOf(replica.lsn);
      const behind = this.points.find((point) => point.lsn > replayed);
      lagMs = behind ? now - behind.at : 0;
      if (!replica.recovery) reason = 'the replica is not in recovery';
      else if (replica.lsn === null) reason = 'the replica has replayed nothing';
      else if (lagMs > this.maxLagMs) reason = 'the replica lags';
    } catch (error) {
      reason = `the replica or the primary does not answer: ${(error as Error).message}`;
    }
    if (this.closed) return;
    const usable = reason === undefined;
    if (usable === this.usable) return;
    this.usable = usable;
    if (usable) this.log.warn({ lagMs }, 'lag-tolerant reads on the read replica');
    else this.log.warn({ lagMs, maxLagMs: this.maxLagMs, reason }, 'lag-tolerant reads on the primary');
  }
}

function withinPoll<T>(query: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REPLICA_POLL_MS} ms`)), REPLICA_POLL_MS);
  });
  return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
}
