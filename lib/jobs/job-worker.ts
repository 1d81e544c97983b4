import { Logger, type TaskList, type WorkerPool, runTaskList } from 'graphile-worker';
import { Pool } from 'pg';
import { JOB_SCHEMA } from './job-queue';

export interface JobLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobWorkerOptions {
  /** The owning subgraph's own database role (a member of the queue's role, docs/decisions/0205-job-queue.md). */
  connectionString: string;
  /** Jobs run at once in this process (JOBS_CONCURRENCY). */
  concurrency: number;
  /** How often an idle worker looks for jobs that became due (retries); new jobs arrive at once by LISTEN/NOTIFY. */
  pollIntervalMs: number;
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

  constructor(private readonly options: JobWorkerOptions) {}

  start(): void {
    if (this.workers) return;
    const { connectionString, concurrency, pollIntervalMs, tasks, log } = this.options;
    // One connection LISTENs; the others fetch and complete jobs (the tasks use the subgraph's own pool).
    this.pool = new Pool({ connectionString, max: Math.min(concurrency, 8) + 2, idleTimeoutMillis: 30_000 });
    this.pool.on('error', (error) => log.warn({ err: error }, 'job queue connection lost'));
    this.workers = runTaskList(
      {
        schema: JOB_SCHEMA,
        concurrency,
        pollInterval: pollIntervalMs,
        noHandleSignals: true,
        logger: loggerOf(log),
      },
      tasks,
      this.pool,
    );
    this.workers.promise.catch((error: unknown) => log.error({ err: error }, 'job worker stopped'));
    log.info({ concurrency, poll_interval_ms: pollIntervalMs, tasks: Object.keys(tasks) }, 'job worker started');
  }

  /** Takes no new job, waits for the running ones (graphile-worker aborts them after 5 s), closes its pool. */
  async stop(): Promise<void> {
    const workers = this.workers;
    this.workers = undefined;
    if (workers) await workers.gracefulShutdown('process stopping');
    await this.pool?.end();
    this.pool = undefined;
  }
}

/** graphile-worker's log lines in ours: its routine chatter at debug, warnings and errors as such. */
function loggerOf(log: JobLog): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields = {
      component: 'job-worker',
      task: scope.taskIdentifier,
      job_id: scope.jobId,
      ...(meta?.error ? { err: meta.error } : {}),
    };
    if (level === 'error') log.error(fields, message);
    else if (level === 'warning') log.warn(fields, message);
    else log.debug(fields, message);
  });
}
