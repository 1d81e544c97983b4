import { Gauge, type Registry } from 'prom-client';
import { JOB_SCHEMA } from './job-queue';

interface QueueRow {
  task: string;
  ready: string | number;
  scheduled: string | number;
  running: string | number;
  failed: string | number;
  oldest_ready_secs: string | number | null;
}

/** The SQL of one scrape: jobs per task by state, and how long the oldest due job has waited. */
export const QUEUE_STATE_SQL = `
  select task_identifier as task,
    count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now()) as ready,
    count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now()) as scheduled,
    count(*) filter (where locked_at is not null) as running,
    count(*) filter (where locked_at is null and attempts >= max_attempts) as failed,
    extract(epoch from now() - min(run_at) filter (where locked_at is null and attempts < max_attempts and run_at <= now()))::float
      as oldest_ready_secs
  from ${JOB_SCHEMA}.jobs group by task_identifier`;

/**
 * Job queue gauges, read from the queue at each scrape of /metrics (docs/decisions/0031-webhooks-and-job-queue.md):
 * `jobs_queued{task,state}` (ready: due and waiting for a worker; scheduled: a retry in the future; running; failed:
 * out of infrastructure attempts) and `jobs_oldest_ready_age_seconds{task}` (0 when none waits). A growing ready
 * backlog or age means the workers do not keep up (or are not running).
 */
export function registerQueueMetrics(registry: Registry, query: (sql: string) => Promise<QueueRow[]>): void {
  /** The queue's state, or null when the database does not answer (/health says so; the other metrics stay). */
  const read = () => query(QUEUE_STATE_SQL).catch(() => null);
  new Gauge({
    name: 'jobs_queued',
    help: 'Jobs in the PostgreSQL job queue by task and state (ready, scheduled, running, failed)',
    labelNames: ['task', 'state'],
    registers: [registry],
    async collect() {
      const rows = await read();
      if (!rows) return;
      this.reset();
      for (const row of rows)
        for (const state of ['ready', 'scheduled', 'running', 'failed'] as const) this.set({ task: row.task, state }, Number(row[state]));
    },
  });
  new Gauge({
    name: 'jobs_oldest_ready_age_seconds',
    help: 'How long the oldest due job of each task has waited for a worker',
    labelNames: ['task'],
    registers: [registry],
    async collect() {
      const rows = await read();
      if (!rows) return;
      this.reset();
      for (const row of rows) this.set({ task: row.task }, Number(row.oldest_ready_secs ?? 0));
    },
  });
}
