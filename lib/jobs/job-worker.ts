import { EventEmitter } from 'node:events';
import { Logger, type TaskList, type WorkerEvents, type WorkerPool, runTaskList } from 'graphile-worker';
import { Pool } from 'pg';
import { isConnectionFailure } from '../errors/app-error';
import { JOB_SCHEMA } from './job-queue';

export interface JobLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobWorkerOptions {
  /** The owning subgraph's own database role (a member of the queue's role, docs/decisions/0031-webhooks-and-job-queue.md). */
  connectionString: string;
  /** Jobs run at once in this process (JOBS_CONCURRENCY). */
  concurrency: number;
  /** How often an idle worker looks for jobs that became due (retries); new jobs arrive at once by LISTEN/NOTIFY. */
  pollIntervalMs: number;
  /** A worker (of any process) unseen this long is dead: its locked jobs go back to the queue (JOBS_RECOVERY_SECS). */
  recoverySecs: number;
  /** A connection of the worker's pool idle this long is closed, ms (DB_POOL_IDLE_MS). */
  poolIdleMs: number;
  tasks: TaskList;
  log: JobLog;
}

/**
 * graphile-worker in the process that owns the jobs' aggregate: a pool of `concurrency` workers that take only the
 * tasks of `tasks` (other processes' tasks stay queued for their owners). It installs no signal handlers: the
 * process's own shutdown stops it (`stop`: no new jobs, the running ones finish), before the ORM closes.
 */
export class JobWorker {
  private pool?: Pool;
  private workers?: WorkerPool;
  private heartbeat?: NodeJS.Timeout;
  private readonly workerIds = new Set<string>();
  /** Set when the process stops: its database may be stopping too (`npm start`'s Ctrl-C reaches both). */
  private stopping = false;
  /** A runner being started afresh (`run`). */
  private restarting?: Promise<void>;

  constructor(private readonly options: JobWorkerOptions) {}

  start(): void {
    if (this.workers) return;
    this.stopping = false;
    const { connectionString, concurrency, pollIntervalMs, recoverySecs, poolIdleMs, tasks, log } = this.options;
    // One connection LISTENs; the others fetch and complete jobs (the tasks use the subgraph's own pool). An idle worker
    // polls every pollIntervalMs: its connection is kept between polls rather than reopened for each.
    this.pool = new Pool({
      connectionString,
      max: Math.min(concurrency, 8) + 2,
      idleTimeoutMillis: Math.max(poolIdleMs, 3 * pollIntervalMs),
    });
    const lost = (error: Error) => this.connectionLost(error);
    this.pool.on('error', lost);
    // A connection lost while checked out (a PostgreSQL restart) emits 'error' on its client, which graphile-worker
    // does not always listen to yet (between connecting and LISTEN): unheard, it would end the process.
    this.pool.on('connect', (client) => client.on('error', lost));
    this.workers = this.run(this.pool);
    this.heartbeat = setInterval(() => void this.beat(), Math.max(500, (recoverySecs * 1000) / 6));
    this.heartbeat.unref();
    log.info({ concurrency, poll_interval_ms: pollIntervalMs, tasks: Object.keys(tasks) }, 'job worker started');
  }

  /**
   * graphile-worker's runner on `pool`. graphile-worker 0.18 keeps the promise of its first query of the task list
   * (`getTaskDetails`) even when it rejects: a connection lost during that query (PostgreSQL restarting as the process
   * starts) would fail every later fetch with that same error object, and no job would run again. The same error
   * object reported twice is that state (a failure of its own is a new object each time): the runner starts afresh.
   */
  private run(pool: Pool): WorkerPool {
    const { concurrency, pollIntervalMs, tasks, log } = this.options;
    const events = new EventEmitter() as WorkerEvents;
    // Jobs are locked by the pool's id or a worker's (graphile-worker takes them in batches per pool): both beat.
    events.on('pool:create', ({ workerPool }) => {
      this.workerIds.add(workerPool.id);
      void this.beat();
    });
    events.on('worker:create', ({ worker }) => this.workerIds.add(worker.workerId));
    let lastFetchError: unknown;
    events.on('worker:getJob:error', ({ error }) => {
      if (error === lastFetchError && this.workers === workers && !this.stopping) this.restarting = this.restart(workers, pool);
      lastFetchError = error;
    });
    const workers = runTaskList(
      {
        schema: JOB_SCHEMA,
        concurrency,
        pollInterval: pollIntervalMs,
        noHandleSignals: true,
        logger: loggerOf(log, () => this.stopping),
        events,
      },
      tasks,
      pool,
    );
    workers.promise.catch((error: unknown) => log.error({ err: error }, 'job worker stopped'));
    return workers;
  }

  private async restart(workers: WorkerPool, pool: Pool): Promise<void> {
    this.options.log.warn({}, 'job worker restarted: its task list failed to load');
    this.workers = undefined;
    // After the failed fetch has scheduled its next try, which the shutdown then cancels (a worker released during
    // the fetch would end with that error instead).
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.resolve(workers.gracefulShutdown('task list failed to load')).catch(() => undefined);
    if (!this.stopping) this.workers = this.run(pool);
  }

  /**
   * Crash recovery, which graphile-worker leaves to its 4-hour lock timeout: this process's workers are marked seen,
   * and the workers of any process unseen for `recoverySecs` (killed: a graceful stop releases its jobs itself) are
   * forgotten and their locked jobs unlocked (`force_unlock_workers`), to run again on a live worker. A job cut off
   * mid-way runs again: handlers are idempotent per job (a webhook's receiver dedupes by event id).
   */
  private async beat(): Promise<void> {
    const pool = this.pool;
    if (!pool || this.workerIds.size === 0) return;
    try {
      await pool.query(
        `insert into ${JOB_SCHEMA}.worker_heartbeats (worker_id, seen_at) select unnest($1::text[]), now()
         on conflict (worker_id) do update set seen_at = now()`,
        [[...this.workerIds]],
      );
      const { rows } = await pool.query<{ worker_id: string }>(
        `with stale as (delete from ${JOB_SCHEMA}.worker_heartbeats where seen_at < now() - make_interval(secs => $1) returning worker_id)
         select worker_id from stale, lateral (select ${JOB_SCHEMA}.force_unlock_workers(array[stale.worker_id])) unlock`,
        [this.options.recoverySecs],
      );
      if (rows.length > 0) this.options.log.warn({ workers: rows.map((r) => r.worker_id) }, 'jobs of dead workers released');
    } catch (error) {
      // A beat in flight as the process stops may lose its connection with the rest: expected then (debug).
      if (this.stopping && isConnectionFailure(error)) this.options.log.debug({ err: error }, 'job worker heartbeat failed');
      else this.options.log.warn({ err: error }, 'job worker heartbeat failed');
    }
  }

  /** A lost connection is a warning, except while the process stops: then it is expected and logged at debug. */
  private connectionLost(error: Error): void {
    if (this.stopping) this.options.log.debug({ err: error }, 'job queue connection lost');
    else this.options.log.warn({ err: error }, 'job queue connection lost');
  }

  /** Takes no new job, waits for the running ones (graphile-worker aborts them after 5 s), closes its pool. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.heartbeat);
    await this.restarting; // once stopping, a restart starts no new runner
    const workers = this.workers;
    this.workers = undefined;
    if (workers) await workers.gracefulShutdown('process stopping');
    await this.pool
      ?.query(`delete from ${JOB_SCHEMA}.worker_heartbeats where worker_id = any($1::text[])`, [[...this.workerIds]])
      .catch(() => undefined);
    await this.pool?.end();
    this.pool = undefined;
  }
}

/**
 * graphile-worker's log lines in ours: its routine chatter at debug, warnings and errors as such, except a lost
 * database connection while the process stops (debug).
 */
function loggerOf(log: JobLog, stopping: () => boolean): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields = {
      component: 'job-worker',
      task: scope.taskIdentifier,
      job_id: scope.jobId,
      ...(meta?.error ? { err: meta.error } : {}),
    };
    if (stopping() && isConnectionFailure(meta?.error)) log.debug(fields, message);
    else if (level === 'error') log.error(fields, message);
    else if (level === 'warning') log.warn(fields, message);
    else log.debug(fields, message);
  });
}
