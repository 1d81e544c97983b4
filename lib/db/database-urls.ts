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
 * The URL a subgraph connects with: its own `<NAME>_DATABASE_URL` when set (production), otherwise the admin
 * URL with the subgraph's role and the shared role password (development, tests, the embedded server).
 */
export function subgraphDatabaseUrl(config: Config, subgraph: SubgraphName, adminUrl = config.database.adminUrl): string {
  const explicit = config.database.subgraphUrls[subgraph];
  if (explicit) return explicit;
  if (!adminUrl)
    throw new Error(`no database URL for the ${subgraph} subgraph: set DATABASE_URL or ${subgraph.toUpperCase()}_DATABASE_URL`);
  const url = new URL(adminUrl);
  url.username = roleOf(config, subgraph);
  url.password = config.database.rolePassword;
  return url.toString();
}

/** The same server and credentials, another database (tests clone a template per file). */
export function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}
