import { Logger, runMigrations } from 'graphile-worker';
import { Client } from 'pg';
import type { Config, SubgraphName } from '../config/config';
import { roleOf } from '../db/database-urls';
import { JOB_SCHEMA } from './job-queue';

/** The subgraphs whose roles enqueue or work jobs (docs/decisions/0031-webhooks-and-job-queue.md). */
export const QUEUE_SUBGRAPHS: readonly SubgraphName[] = ['merchant', 'outlet', 'transaction', 'catalog'];

/** The role that may use the queue; the roles of QUEUE_SUBGRAPHS are its members. */
export function queueRoleOf(config: Config): string {
  return `${config.database.rolePrefix}_jobs`;
}

const silent = new Logger(() => () => undefined);

/**
 * Installs or upgrades graphile-worker's schema (its own migrations, `runMigrations`) with the admin URL, then lets
 * the queue role use it: graphile-worker's tables have row-level security on and no policy, so only their owner
 * could read them; one permissive policy per table for the queue role, and its grants, open them to it alone. Safe
 * to run many times and concurrently (`db:migrate`, `npm start`, the tests' template database).
 */
export async function installJobQueue(config: Config, adminUrl: string): Promise<void> {
  await runMigrations({ connectionString: adminUrl, schema: JOB_SCHEMA, logger: silent });
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const role = client.escapeIdentifier(queueRoleOf(config));
    const schema = client.escapeIdentifier(JOB_SCHEMA);
    await client.query(`DO $$ BEGIN CREATE ROLE ${role} NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`);
    // Heartbeats of the running workers (job-worker.ts): a worker unseen for JOBS_RECOVERY_SECS had its process die.
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.worker_heartbeats (worker_id text PRIMARY KEY, seen_at timestamptz NOT NULL)`);
    await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
    await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${schema} TO ${role}`);
    await client.query(
      `DO $$ DECLARE t regclass; BEGIN
         FOR t IN SELECT c.oid::regclass FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                  WHERE n.nspname = ${client.escapeLiteral(JOB_SCHEMA)} AND c.relkind IN ('r', 'p') AND c.relrowsecurity LOOP
           BEGIN
             EXECUTE format('CREATE POLICY queue_role ON %s TO %I USING (true) WITH CHECK (true)', t, ${client.escapeLiteral(queueRoleOf(config))});
           EXCEPTION WHEN duplicate_object THEN NULL;
           END;
         END LOOP;
       END $$`,
    );
    for (const subgraph of QUEUE_SUBGRAPHS) await client.query(`GRANT ${role} TO ${client.escapeIdentifier(roleOf(config, subgraph))}`);
  } finally {
    await client.end();
  }
}
