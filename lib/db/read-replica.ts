import type { FastifyBaseLogger } from 'fastify';
import type { Orm } from './orm';

/** How often the replica's lag is polled, ms; a poll without an answer within it counts as failed. */
export const REPLICA_POLL_MS = 1000;

/**
 * The replica's state for the reads that tolerate lag: `lagMs` is 0 when it has replayed all the WAL it received, else
 * the time since the last transaction it replayed (a paused or slow replay); a server not in recovery (promoted, or
 * a primary named by mistake) has no lag to trust.
 */
const LAG_SQL = `select pg_is_in_recovery() as recovery,
  pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() as caught_up,
  extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000 as lag_ms`;

interface LagRow {
  recovery: boolean;
  caught_up: boolean | null;
  lag_ms: string | number | null;
}

/**
 * A subgraph's second ORM on a streaming replica (docs/decisions/0232-read-replicas.md), polled each second: `ormFor`
 * answers it for a request that may read the replica (lib/federation/replica-reads.ts) while the last poll found the
 * lag within the bound, else the primary's. Closed with the subgraph's server or embedded copy.
 */
export class ReadReplica {
  /** What the last poll found; undefined before the first. */
  private usable?: boolean;
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private closed = false;

  constructor(
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

  private async poll(): Promise<void> {
    let reason: string | undefined;
    let lagMs: number | undefined;
    try {
      const [row] = await withinPoll(this.orm.em.getConnection().execute<LagRow[]>(LAG_SQL, [], 'all'));
      lagMs = row.caught_up ? 0 : row.lag_ms === null ? undefined : Number(row.lag_ms);
      if (!row.recovery) reason = 'the replica is not in recovery';
      else if (lagMs === undefined) reason = 'the replica has replayed no transaction yet';
      else if (lagMs > this.maxLagMs) reason = 'the replica lags';
    } catch (error) {
      reason = `the replica does not answer: ${(error as Error).message}`;
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
