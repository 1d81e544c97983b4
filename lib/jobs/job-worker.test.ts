import Fastify, { type FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '@lib/config/config';
import { subgraphDatabaseUrl } from '@lib/db/database-urls';
import { fastifyLoggingOptions } from '@lib/logging/logger';
import { type TestDatabase, adminQuery, cloneTemplateDatabase } from '@test/support/test-database';
import { JOB_SCHEMA } from './job-queue';
import { JobWorker } from './job-worker';

interface LogLine {
  level: number;
  msg: string;
  err?: Record<string, unknown>;
}

/**
 * What the job worker logs when PostgreSQL drops its connections (a restart, `pg_terminate_backend`): through the
 * processes' own logger options, on a real server. Running, a warning that names the error without the pg client
 * pg-pool attaches to it; stopping (`npm start`'s Ctrl-C stops the database with the processes), nothing above debug.
 */
describe('JobWorker, its database connections lost (real PostgreSQL, graphile-worker)', () => {
  let db: TestDatabase;
  let config: Config;
  let app: FastifyInstance;
  const lines: { text: string; line: LogLine }[] = [];
  let release = () => undefined as void;
  let started = () => undefined as void;
  let worker: JobWorker;

  /** Ends every other connection to the test database: the worker's pool and its LISTEN connection. */
  const dropConnections = () =>
    adminQuery(
      db.adminUrl,
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
  const connectionLines = () => lines.filter(({ line }) => /connection/i.test(line.msg) || /terminat/i.test(String(line.err?.message)));

  async function until(done: () => Promise<boolean> | boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const workerConnections = async () =>
    Number(
      (
        await adminQuery(
          db.adminUrl,
          `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        )
      )[0].n,
    );

  beforeAll(async () => {
    db = await cloneTemplateDatabase();
    config = loadConfig({ DATABASE_URL: db.adminUrl, LOG_LEVEL: 'debug' });
    app = Fastify(
      fastifyLoggingOptions(config, 'job-worker-test', { write: (text) => void lines.push({ text, line: JSON.parse(text) as LogLine }) }),
    );
    worker = new JobWorker({
      connectionString: subgraphDatabaseUrl(config, 'merchant', db.adminUrl),
      concurrency: 1,
      pollIntervalMs: 50,
      recoverySecs: 60,
      tasks: {
        job_worker_test_block: () =>
          new Promise<void>((resolve) => {
            release = resolve;
            started();
          }),
      },
      log: app.log,
    });
    worker.start();
    await until(async () => (await workerConnections()) > 0, "the worker's connections");
  });
  afterAll(async () => {
    release();
    await worker?.stop();
    await app?.close();
    await db?.drop();
  });

  it('reports lost connections while running (the pool warns, graphile-worker errs), each without the pg client', async () => {
    await dropConnections();
    await until(() => connectionLines().some(({ line }) => line.level === 40), 'a warning');
    const warnings = connectionLines().filter(({ line }) => line.level >= 40);
    expect(warnings.length).toBeGreaterThan(0);
    for (const { text, line } of warnings) {
      expect(line.err).toMatchObject({ message: expect.stringMatching(/terminat|connection error/i) });
      expect(line.err).not.toHaveProperty('client');
      expect(text.length).toBeLessThan(3000);
    }
    // It reconnects: the next job runs.
    await until(async () => (await workerConnections()) > 0, 'the worker to reconnect');
  });

  it('logs connections lost while it stops at debug, nothing above', async () => {
    const running = new Promise<void>((resolve) => (started = resolve));
    await adminQuery(db.adminUrl, `select ${JOB_SCHEMA}.add_job('job_worker_test_block', '{}'::json)`);
    await running;
    lines.length = 0;
    const stopped = worker.stop();
    await dropConnections();
    await until(() => connectionLines().length > 0, 'the lost connections to be logged');
    release();
    await stopped;
    expect(connectionLines().filter(({ line }) => line.level >= 40)).toEqual([]);
    expect(connectionLines().map(({ line }) => line.level)).toContain(20);
  });
});
