import type { Config, SubgraphName } from '../config/config';

/** One PostgreSQL schema per subgraph; the name is also the owner role's suffix. */
export const SCHEMA_OF: Record<SubgraphName, string> = {
  merchant: 'merchant',
  outlet: 'outlet',
  transaction: 'transaction',
  catalog: 'catalog',
};

export function roleOf(config: Config, subgraph: SubgraphName): string {
  return `${config.database.rolePrefix}_${subgraph}`;
}

/**
 * The URL a subgraph's pool connects with: its own `<NAME>_DATABASE_URL` when set (production), otherwise the admin
 * URL with the subgraph's role and the shared role password (development, tests, the embedded server), at the
 * pooler's address when DATABASE_POOLER_ADDRESS is set. Pool statements are unnamed (node-postgres names none
 * unless asked, and knex never asks), so a pooler in transaction mode of any version serves them.
 */
export function subgraphDatabaseUrl(config: Config, subgraph: SubgraphName, adminUrl = config.database.adminUrl): string {
  const explicit = config.database.subgraphUrls[subgraph];
  if (explicit) return explicit;
  const url = derivedUrl(config, subgraph, adminUrl);
  if (config.database.poolerAddress) url.host = config.database.poolerAddress;
  return url.toString();
}

/**
 * The URL of a subgraph's sessions that need one server connection of their own for their whole life, which a pooler
 * in transaction mode does not give: LISTEN (the job worker, the cache-invalidation relay) and graphile-worker's named
 * prepared statements. `<NAME>_DIRECT_DATABASE_URL`, else `<NAME>_DATABASE_URL`, else derived from the admin URL
 * (never the pooler's address).
 */
export function subgraphDirectDatabaseUrl(config: Config, subgraph: SubgraphName, adminUrl = config.database.adminUrl): string {
  const explicit = config.database.directUrls[subgraph] ?? config.database.subgraphUrls[subgraph];
  return explicit ?? derivedUrl(config, subgraph, adminUrl).toString();
}

/**
 * The URL of a subgraph's pool on a streaming replica, for the reads that tolerate lag (lib/db/read-replica.ts):
 * `<NAME>_READ_DATABASE_URL`, else DATABASE_READ_URL with the subgraph's role and the shared role password; undefined
 * when neither is set (every read goes to the primary).
 */
export function subgraphReadDatabaseUrl(
  config: Config,
  subgraph: SubgraphName,
  adminUrl = config.database.readAdminUrl,
): string | undefined {
  const explicit = config.database.readUrls[subgraph];
  if (explicit) return explicit;
  return adminUrl ? derivedUrl(config, subgraph, adminUrl).toString() : undefined;
}

function derivedUrl(config: Config, subgraph: SubgraphName, adminUrl: string | undefined): URL {
  if (!adminUrl)
    throw new Error(`no database URL for the ${subgraph} subgraph: set DATABASE_URL or ${subgraph.toUpperCase()}_DATABASE_URL`);
  const url = new URL(adminUrl);
  url.username = roleOf(config, subgraph);
  url.password = config.database.rolePassword;
  return url;
}

/** The same server and credentials, another database (tests clone a template per file). */
export function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}
