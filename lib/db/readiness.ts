import { Pool } from 'pg';
import type { ReadinessCheck } from '../http/probes';

/** Runs one statement on the database; the rows it returns. */
export type Query = (sql: string) => Promise<{ name: string }[]>;

/**
 * Readiness of one subgraph's database (docs/decisions/0203-compose-and-image-proof.md): it answers, and its
 * schema holds every migration this build lists (`migrations`, in MikroORM's table). A newer release's migrations
 * beside them do not matter (expand/contract: the previous release runs on the expanded schema); a missing one
 * means the migration job has not run yet, and the copy gets no traffic. Once all were seen, only the connection is
 * checked (migrations are never undone).
 */
export function databaseReadiness(name: string, schema: string, migrations: readonly string[], query: Query): ReadinessCheck {
  let migrated = false;
  return {
    name,
    check: async () => {
      if (migrated) {
        await query('select 1 as name');
        return;
      }
      const applied = new Set((await query(`select name from "${schema}".mikro_orm_migrations`)).map((row) => row.name));
      const missing = migrations.filter((migration) => !applied.has(migration));
      if (missing.length > 0) throw new Error(`${missing.length} migration(s) not applied, e.g. ${missing[0]}`);
      migrated = true;
    },
  };
}

/**
 * A one-connection pool for readiness checks of a process that holds no ORM of its own for the database (the REST
 * process with its subgraphs in-process); the connection closes when idle. `close` ends it.
 */
export function probePool(connectionString: string): { query: Query; close: () => Promise<void> } {
  const pool = new Pool({ connectionString, max: 1, idleTimeoutMillis: 10_000, connectionTimeoutMillis: 700 });
  pool.on('error', () => undefined); // an idle connection lost (a database restart): the next check reconnects
  return {
    query: async (sql) => (await pool.query<{ name: string }>(sql)).rows,
    close: () => pool.end(),
  };
}
