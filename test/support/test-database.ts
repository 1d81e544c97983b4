import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { withDatabase } from '@lib/db/database-urls';
import { eventually } from './eventually';

/** Set by the global setup for every worker. */
export const ADMIN_URL_ENV = 'QRIS_TEST_ADMIN_URL';
export const TEMPLATE_ENV = 'QRIS_TEST_TEMPLATE_DB';
export const TEST_DB_PREFIX = 'qris_t_';
/**
 * Settings of every test database (record 0004), for the CPU of a loaded 2-core machine: a commit does not wait for
 * its WAL to reach the disk (a test database never outlives a crash, and the suite commits tens of thousands of
 * times); no statement starts parallel workers or compiles itself (on tables of a few thousand rows they cost more
 * than they save: `tableCounts` took 90-220 ms with them, about 20 ms without).
 */
export const TEST_DATABASE_SETTINGS = ['synchronous_commit = off', 'max_parallel_workers_per_gather = 0', 'jit = off'];

/** Applies TEST_DATABASE_SETTINGS to database `name` (its new connections). */
export async function applyTestSettings(maintenanceUrl: string, name: string): Promise<void> {
  await onSession(maintenanceUrl, (client) => client.query(settingsOf(name)));
}

const settingsOf = (name: string) => TEST_DATABASE_SETTINGS.map((setting) => `ALTER DATABASE ${name} SET ${setting}`).join('; ');

export interface TestDatabase {
  adminUrl: string;
  name: string;
  /**
   * Every table of the four subgraph schemas with its row count (one statement, one snapshot), once no job is due: a
   * job's writes (the transaction subgraph's copy of merchants, say) land after the request that enqueued it, so a
   * count taken while one runs would credit them to the next request. Derived caches that reads fill on demand
   * (scoring's daily rollups) are not state a request changes, nor are the reconciliation's results (a settlement's
   * arrival run is queued two seconds after it, docs/decisions/0242-daily-reconciliation.md). On the database's pooled admin
   * sessions: a new session's first count loads the catalogue of the tables, about 0.3 s; a warm one takes about 20 ms.
   */
  tableCounts(): Promise<Record<string, number>>;
  /**
   * Waits until the job queue holds no job due now, as `tableCounts` does before counting: what a run's jobs were to
   * send or write has been sent or written, so a check that nothing more comes need not sleep.
   */
  jobsIdle(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * The admin sessions of the test databases this process cloned and has not dropped: a few pooled connections each.
 * A new session costs PostgreSQL a fork and its catalogue caches (30-100 ms of its CPU on a 2-core runner), and the
 * specs' checks ask a database hundreds of times, many inside `eventually` loops (docs/benchmarks.md, "The test suite").
 */
const clonePools = new Map<string, Pool>();

/**
 * `sql` as the server's superuser on `url`: on a pooled session when `url` is a live clone of this process, else on a
 * session of its own (the resilience suites' servers fail over and restart under their sessions).
 */
export async function adminQuery<T extends object = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const pool = clonePools.get(url);
  if (pool) return (await pool.query(sql, params)).rows as T[];
  return onSession(url, async (client) => (await client.query(sql, params)).rows as T[]);
}

/** `use` on a session of its own on `url`, ended afterwards. */
async function onSession<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * A private database for one test file: a copy of the template the global setup migrated and seeded
 * (reference and demo data), dropped afterwards. A copy takes 0.3-0.5 s, mostly the server waiting on its disk (FILE_COPY
 * checkpoints): each process keeps one spare copy ready, made in the background after it takes one, and the next call
 * takes it by renaming it (`takeSpare`).
 */
export async function cloneTemplateDatabase(): Promise<TestDatabase> {
  const admin = process.env[ADMIN_URL_ENV];
  const template = process.env[TEMPLATE_ENV];
  if (!admin || !template) throw new Error('test database not prepared: run the tests through jest (global setup)');
  const name = `${TEST_DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  const maintenance = withDatabase(admin, 'postgres');
  await onSession(maintenance, async (client) => {
    if (!(await takeSpare(client, template, name))) await copyTemplate(client, template, name);
    await client.query(settingsOf(name));
  });
  makeSpare(maintenance, template);
  const adminUrl = withDatabase(admin, name);
  // Idle sessions stay 10 s: a spec's checks come in bursts seconds apart, and the counts' catalogue stays warm.
  const pool = new Pool({ connectionString: adminUrl, max: 2, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
  // An idle session ended by the server (a test terminating backends) is dropped from the pool; the next query opens one.
  pool.on('error', () => undefined);
  clonePools.set(adminUrl, pool);
  return {
    adminUrl,
    name,
    tableCounts: () => tableCounts(pool),
    jobsIdle: () => jobsDone(pool),
    drop: async () => {
      clonePools.delete(adminUrl);
      await pool.end();
      await adminQuery(maintenance, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** The spare copies of `template`: `<template>_spare_<random>`, visible once complete (CREATE DATABASE commits at its end). */
const sparePattern = (template: string) => `${template}\\_spare\\_%`;

/** Drops the spare copies of `template` left when the workers ended (the global teardown). */
export async function dropSpares(maintenanceUrl: string, template: string): Promise<void> {
  const spares = await adminQuery<{ datname: string }>(maintenanceUrl, `select datname from pg_database where datname like $1`, [
    sparePattern(template),
  ]);
  for (const { datname } of spares) await adminQuery(maintenanceUrl, `DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
}

/** The spare copy being made by this Jest file, awaited at the file's end (below), so none is made past it. */
let making: Promise<void> | undefined;
if (typeof afterAll === 'function') afterAll(() => making);

async function copyTemplate(maintenance: Client, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      // FILE_COPY copies the template's files and checkpoints twice; the default (WAL_LOG) writes all of its 40 MB to the
      // WAL, about twice the server's CPU per clone (docs/benchmarks.md, "The test suite").
      await maintenance.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
      return;
    } catch (error) {
      // Two workers cloning at the same instant can see each other as "accessing" the template.
      if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/** Renames a spare copy of `template` (any process's of this run) to `name`; false when there is none. */
async function takeSpare(maintenance: Client, template: string, name: string): Promise<boolean> {
  const { rows: spares } = await maintenance.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [
    sparePattern(template),
  ]);
  for (const { datname } of spares) {
    // Another process may take the same one first: then the rename finds no such database.
    const taken = await maintenance.query(`ALTER DATABASE ${datname} RENAME TO ${name}`).then(
      () => true,
      () => false,
    );
    if (taken) return true;
  }
  return false;
}

/** Starts making a spare copy unless this file is making one; a failure leaves none (the next call copies itself). */
function makeSpare(maintenance: string, template: string): void {
  making ??= onSession(maintenance, (client) => copyTemplate(client, template, `${template}_spare_${randomBytes(4).toString('hex')}`))
    .catch(() => undefined)
    .finally(() => (making = undefined));
}

async function tableCounts(pool: Pool): Promise<Record<string, number>> {
  await jobsDone(pool);
  // A partition's rows are counted in its partitioned table (266 partitions would double the work).
  const { rows: tables } = await pool.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('merchant', 'outlet', 'transaction', 'catalog') and c.relkind in ('r', 'p') and not c.relispartition
        and c.relname not in ('mikro_orm_migrations', 'merchant_daily_rollups', 'reconciliation_days', 'reconciliation_differences') order by 1`,
  );
  const sql = tables.map((t) => `select '${t.name}' as name, count(*)::int as n from ${t.name}`).join(' union all ');
  const { rows } = await pool.query<{ name: string; n: number }>(sql);
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

/**
 * Waits until the job queue holds no job due now and none retried within 20 s after a failure (a copy job that failed
 * once on a loaded machine would otherwise land between two counts); jobs retried later, or never, may stay. Fails
 * after 15 s, naming the jobs and their last errors.
 */
async function jobsDone(pool: Pool): Promise<void> {
  let due: { task: string; error: string | null }[] = [];
  await eventually(
    () => `jobs still due after 15 s: ${due.map((j) => (j.error ? `${j.task} (${j.error.split('\n')[0]})` : j.task)).join(', ')}`,
    async () => {
      ({ rows: due } = await pool.query<{ task: string; error: string | null }>(
        `select task_identifier as task, last_error as error from graphile_worker.jobs
          where run_at <= now() or (attempts between 1 and max_attempts - 1 and run_at <= now() + interval '20 seconds')`,
      ));
      return due.length === 0 ? true : undefined;
    },
    15_000,
  );
}
