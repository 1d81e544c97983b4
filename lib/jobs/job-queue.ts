import type { Knex } from '@mikro-orm/postgresql';

/**
 * The PostgreSQL job queue (graphile-worker, docs/decisions/0031-webhooks-and-job-queue.md). Jobs are added with the SQL function
 * `graphile_worker.add_jobs` on the caller's connection, so a job added inside a transaction commits with it or not
 * at all (a rolled-back change enqueues nothing), and the workers hear of it by LISTEN/NOTIFY at the commit.
 */
export const JOB_SCHEMA = 'graphile_worker';

/**
 * Attempts graphile-worker itself makes of one job, with its own exponential backoff: only for failures of our
 * infrastructure (the database unreachable while a handler records its outcome). A failed delivery or send is not a
 * failed job: the handler records it and schedules the next attempt as a new job on its own schedule (retry-schedule.ts).
 */
export const INFRASTRUCTURE_ATTEMPTS = 10;

export interface JobSpec {
  /** The task that runs it (a task list of a worker: lib/jobs/job-worker.ts). */
  task: string;
  /** JSON; never a secret in clear (seal it with the SecretBox). */
  payload: object;
  /** Not before (default: now). */
  runAt?: Date;
  /**
   * A pending job with the same key is replaced rather than added again (graphile-worker's `replace` mode), so a
   * replay that enqueues the same work twice leaves one job.
   */
  jobKey?: string;
  /** Jobs of one queue run one at a time, in order (e.g. one bank's webhooks). */
  queueName?: string;
  maxAttempts?: number;
}

/** Adds the jobs on `db` (a knex transaction to enqueue with a change); one statement whatever their number. */
export async function enqueueJobs(db: Knex, jobs: readonly JobSpec[]): Promise<void> {
  if (jobs.length === 0) return;
  const specs = jobs.map((j) => ({
    identifier: j.task,
    payload: j.payload,
    queue_name: j.queueName ?? null,
    run_at: j.runAt?.toISOString() ?? null,
    max_attempts: j.maxAttempts ?? INFRASTRUCTURE_ATTEMPTS,
    job_key: j.jobKey ?? null,
  }));
  await db.raw(
    `select count(*) from ${JOB_SCHEMA}.add_jobs(array(
       select row(j.identifier, j.payload, j.queue_name, j.run_at, j.max_attempts, j.job_key, null, null)::${JOB_SCHEMA}.job_spec
       from json_to_recordset(?::json) as j(identifier text, payload json, queue_name text, run_at timestamptz, max_attempts int, job_key text)
     ))`,
    [JSON.stringify(specs)],
  );
}

/**
 * Makes sure a chain of scheduled jobs exists (every process at start: the daily runs of docs/decisions/0046-notifications.md
 * and those that follow its pattern): adds `task` at `runAt` under `key` unless a job with that key is pending or running;
 * a job of the key that used up its attempts is removed first, so that one failure cannot end the chain. Serialised
 * across copies starting together by an advisory lock; `db` must be a transaction (the lock is transaction-scoped).
 */
export async function ensureJob(db: Knex, task: string, key: string, payload: object, runAt: Date): Promise<void> {
  await db.raw(`select pg_advisory_xact_lock(hashtext(?))`, [key]);
  await db.raw(
    `select ${JOB_SCHEMA}.remove_job(j.key) from ${JOB_SCHEMA}.jobs j
      where j.key = ? and j.attempts >= j.max_attempts and j.locked_at is null`,
    [key],
  );
  await db.raw(`select ${JOB_SCHEMA}.add_job(?, ?::json, run_at => ?::timestamptz, job_key => ?, job_key_mode => 'unsafe_dedupe')`, [
    task,
    JSON.stringify(payload),
    runAt,
    key,
  ]);
}
