// Must stay the first import: it records the globals before any project module adds its own.
import { removeGlobalsAddedSinceStart } from './globals-snapshot';
import 'reflect-metadata';
import path from 'node:path';
import { loadConfig } from '@lib/config/config';
import { ensureDatabase } from '@lib/db/bootstrap';
import { withDatabase } from '@lib/db/database-urls';
import { type EmbeddedServer, startEmbeddedPostgres } from '@lib/db/embedded-postgres';
import { migrateAll, seedReferenceAndDemo, syncBankView } from '@scripts/database-tasks';
import { ADMIN_URL_ENV, TEMPLATE_ENV, TEST_DB_PREFIX, adminQuery, applyTestSettings } from './test-database';

declare global {
  var __qrisTestEmbedded: EmbeddedServer | undefined;

  var __qrisTestTemplate: { adminUrl: string; name: string } | undefined;
}

/**
 * Real PostgreSQL for the tests: DATABASE_URL when set (CI: the machine's server), else an embedded server
 * under DATA_DIR/test. One template database is migrated and seeded once per run; each test file clones it.
 */
export default async function globalSetup(): Promise<void> {
  try {
    await prepareTemplate();
  } finally {
    removeGlobalsAddedSinceStart((key) => key.startsWith('__qrisTest'));
  }
}

async function prepareTemplate(): Promise<void> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  let adminUrl = config.database.adminUrl;
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres(path.join(config.database.dataDir, 'test'), config.database.embeddedPort + 1);
    await ensureDatabase(embedded.adminUrl);
    globalThis.__qrisTestEmbedded = embedded;
    adminUrl = embedded.adminUrl;
  }
  const maintenance = withDatabase(adminUrl, 'postgres');
  await dropStaleDatabases(maintenance);

  const template = `qris_tpl_${process.pid}`;
  await adminQuery(maintenance, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  await adminQuery(maintenance, `CREATE DATABASE ${template}`);
  await applyTestSettings(maintenance, template);
  const templateUrl = withDatabase(adminUrl, template);
  await migrateAll(config, templateUrl);
  await seedReferenceAndDemo(config, templateUrl);
  // The copies of the seeded merchants and outlets (0211, 0028), as a running system has them a moment after seeding.
  await syncBankView(config, templateUrl, { all: false });

  globalThis.__qrisTestTemplate = { adminUrl: maintenance, name: template };
  process.env[ADMIN_URL_ENV] = adminUrl;
  process.env[TEMPLATE_ENV] = template;
}

/** Leftovers of runs that were killed; a database still in use by a concurrent run is left alone. */
async function dropStaleDatabases(maintenance: string): Promise<void> {
  const rows = await adminQuery<{ datname: string }>(
    maintenance,
    `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE 'qris_tpl_%'`,
    [`${TEST_DB_PREFIX}%`],
  );
  for (const { datname } of rows) {
    const pid = Number(/_(\d+)(_|$)/.exec(datname)?.[1]);
    if (pid && isAlive(pid)) continue;
    await adminQuery(maintenance, `DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
