import Fastify, { type FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { type Config, loadConfig } from '@lib/config/config';
import { subgraphDatabaseUrl } from '@lib/db/database-urls';
import { fastifyLoggingOptions } from '@lib/logging/logger';
import { eventually } from '@test/support/eventually';
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

  /** The worker's connections to the test database (its pool and its LISTEN connection): those of its own role. */
  const OTHER_CLIENTS = `from pg_stat_activity where datname = current_database() and usename <> current_user and backend_type = 'client backend'`;
  const dropConnections = () => adminQuery(db.adminUrl, `select pg_terminate_backend(pid) ${OTHER_CLIENTS}`);
  /** Resolves once the worker holds a connection again. */
  const connected = (what: string) =>
    eventually(what, async () =>
      Number((await adminQuery(db.adminUrl, `select count(*) as n ${OTHER_CLIENTS}`))[0].n) > 0 ? true : undefined,
    );
  const connectionLines = () => lines.filter(({ line }) => /connection/i.test(line.msg) || /terminat/i.test(String(line.err?.message)));
  /** Resolves once a logged line about a lost connection passes `test`. */
  const logged = (what: string, test: (line: LogLine) => boolean) =>
    eventually(what, async () => (connectionLines().some(({ line }) => test(line)) ? true : undefined));

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
      poolIdleMs: 1000,
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
    await connected("the worker's connections");
  });
  afterAll(async () => {
    release();
    await worker?.stop();
    await app?.close();
    await db?.drop();
  });

  it('reports lost connections while running (the pool warns, graphile-worker errs), each without the pg client', async () => {
    await dropConnections();
    await logged('a warning', (line) => line.level === 40);
    const warnings = connectionLines().filter(({ line }) => line.level >= 40);
    expect(warnings.length).toBeGreaterThan(0);
    for (const { text, line } of warnings) {
      // The server's termination notice, or (when the socket closes before the client reads it) a reset.
      expect(line.err).toMatchObject({ message: expect.stringMatching(/terminat|connection error|ECONNRESET/i) });
      expect(line.err).not.toHaveProperty('client');
      expect(text.length).toBeLessThan(3000);
    }
    // It reconnects: the next job runs.
    await connected('the worker to reconnect');
  });

  it('logs connections lost while it stops at debug, nothing above', async () => {
    const running = new Promise<void>((resolve) => (started = resolve));
    await adminQuery(db.adminUrl, `select ${JOB_SCHEMA}.add_job('job_worker_test_block', '{}'::json)`);
    await running;
    lines.length = 0;
    const stopped = worker.stop();
    await dropConnections();
    await logged('the lost connections to be logged', () => true);
    // Every idle connection's termination notice read (the pool drops them) before the job completes: graphile-worker
    // completes it on a pooled client without awaiting, so a dead one would reject where no one listens.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await stopped;
    expect(connectionLines().filter(({ line }) => line.level >= 40)).toEqual([]);
    expect(connectionLines().map(({ line }) => line.level)).toContain(20);
  });
});

/**
 * graphile-worker 0.18 keeps a failed first query of its task list as the answer to every later fetch: the worker
 * starts its runner afresh (`JobWorker.run`). Made certain here: that query waits on a lock until its session ends.
 */
describe('JobWorker, its first task list query failing (real PostgreSQL, graphile-worker)', () => {
  it('starts its runner afresh and runs jobs once the database answers', async () => {
    const db = await cloneTemplateDatabase();
    const warnings: string[] = [];
    const log = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (_: object, msg: string) => void warnings.push(msg),
    };
    let ran = () => undefined as void;
    const done = new Promise<void>((resolve) => (ran = resolve));
    const holder = new Client({ connectionString: db.adminUrl });
    await holder.connect();
    const worker = new JobWorker({
      connectionString: subgraphDatabaseUrl(loadConfig({ DATABASE_URL: db.adminUrl }), 'merchant', db.adminUrl),
      concurrency: 1,
      pollIntervalMs: 50,
      recoverySecs: 60,
      poolIdleMs: 1000,
      tasks: { job_worker_test_fresh: async () => ran() },
      log,
    });
    try {
      await holder.query(`begin; lock table ${JOB_SCHEMA}._private_tasks in access exclusive mode`);
      worker.start();
      await eventually('the task list query waiting on the lock', async () => {
        const [{ n }] = await adminQuery<{ n: number }>(
          db.adminUrl,
          `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query like '%_private_tasks%'`,
        );
        return n > 0 ? true : undefined;
      });
      await holder.query('rollback');
      await adminQuery(db.adminUrl, `select ${JOB_SCHEMA}.add_job('job_worker_test_fresh', '{}'::json)`);
      await done;
      expect(warnings).toContain('job worker restarted: its task list failed to load');
    } finally {
      await holder.end();
      await worker.stop();
      await db.drop();
    }
  });
});
