// Must stay the first import (the normal global setup's globals snapshot).
import globalSetup from '../support/global-setup';
import { SUBGRAPH_NAMES, loadConfig } from '@lib/config/config';
import { roleOf } from '@lib/db/database-urls';
import { ADMIN_URL_ENV } from '../support/test-database';
import { PgBouncer } from './pgbouncer';

declare global {
  var __qrisTestPgBouncer: PgBouncer | undefined;
}

/**
 * The normal global setup (a migrated and seeded template on DATABASE_URL's server or an embedded one), then a real
 * PgBouncer in transaction mode in front of that server: DATABASE_POOLER_ADDRESS sends every subgraph pool of every
 * test stack through it, while the job workers and the invalidation relay (LISTEN) and the tests' own admin queries
 * stay direct; DB_PREPARED_STATEMENTS=unnamed, as PgBouncer before 1.21 needs (docs/decisions/0228-database-high-availability.md).
 */
export default async function poolerGlobalSetup(): Promise<void> {
  await globalSetup();
  const server = new URL(process.env[ADMIN_URL_ENV]!);
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  const users = Object.fromEntries(SUBGRAPH_NAMES.map((name) => [roleOf(config, name), config.database.rolePassword]));
  const bouncer = await PgBouncer.start({ host: server.hostname, port: Number(server.port || 5432) }, users);
  globalThis.__qrisTestPgBouncer = bouncer;
  process.env.DATABASE_POOLER_ADDRESS = bouncer.address;
  // PgBouncer 1.18 keeps no prepared statement across transactions: the pools' hot statements go unnamed.
  process.env.DB_PREPARED_STATEMENTS = 'unnamed';
}
