import { Client } from 'pg';
import { SUBGRAPH_NAMES, type Config } from '../config/config';
import { SCHEMA_OF, roleOf } from './database-urls';

/**
 * Creates (or brings up to date) one login role per subgraph and the schema it owns. Run with the admin
 * URL before migrations; safe to run many times and concurrently. A subgraph role can use only its own
 * schema: no grants on the others, so a subgraph cannot read another's tables even by mistake.
 */
export async function ensureRolesAndSchemas(config: Config, adminUrl: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const subgraph of SUBGRAPH_NAMES) {
      const role = client.escapeIdentifier(roleOf(config, subgraph));
      const password = client.escapeLiteral(config.database.rolePassword);
      await client.query(
        `DO $$ BEGIN CREATE ROLE ${role} LOGIN PASSWORD ${password};
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
      );
      await client.query(`ALTER ROLE ${role} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${password}`);
      const schema = client.escapeIdentifier(SCHEMA_OF[subgraph]);
      await client.query(
        `DO $$ BEGIN CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${role};
         EXCEPTION WHEN duplicate_schema OR unique_violation THEN NULL; END $$`,
      );
      await client.query(`ALTER SCHEMA ${schema} OWNER TO ${role}`);
    }
    await client.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
  } finally {
    await client.end();
  }
}

/** Creates a database when it does not exist (the embedded server starts with none of ours). */
export async function ensureDatabase(adminUrl: string): Promise<void> {
  const target = new URL(adminUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(adminUrl);
  maintenance.pathname = '/postgres';
  const client = new Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * The `archive` schema old months of the transaction subgraph's partitioned tables are moved to
 * (docs/decisions/0208-partitioned-history.md), created as the admin when missing (a subgraph role cannot create schemas)
 * and owned by the role that owns the `transaction` schema: the tables keep their owner, which can move them there and
 * read them back. Safe to run many times and concurrently.
 */
export async function ensureArchiveSchema(adminUrl: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ owner: string }>(`select nspowner::regrole::text as owner from pg_namespace where nspname = $1`, [
      SCHEMA_OF.transaction,
    ]);
    if (rows.length === 0) throw new Error(`schema "${SCHEMA_OF.transaction}" does not exist: run npm run ops -- db:migrate first`);
    const owner = rows[0].owner;
    const name = client.escapeIdentifier(schema);
    await client.query(
      `DO $$ BEGIN CREATE SCHEMA IF NOT EXISTS ${name} AUTHORIZATION ${owner};
       EXCEPTION WHEN duplicate_schema OR unique_violation THEN NULL; END $$`,
    );
    // A schema an operator made beforehand: the owner of the tables may still use it.
    await client.query(`GRANT USAGE, CREATE ON SCHEMA ${name} TO ${owner}`);
  } finally {
    await client.end();
  }
}
