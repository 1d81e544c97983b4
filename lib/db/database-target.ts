import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config';
import { ensureDatabase } from './bootstrap';
import { type EmbeddedServer, embeddedAdminUrl, startEmbeddedPostgres } from './embedded-postgres';

export interface DatabaseTarget {
  adminUrl: string;
  /** Present when this process started the embedded server and must stop it. */
  embedded?: EmbeddedServer;
  source: 'DATABASE_URL' | 'embedded (started)' | 'embedded (already running)';
}

/**
 * DATABASE_URL when set; otherwise the embedded server of DATA_DIR: reused when another process (a running
 * `npm start`) already serves that folder, started otherwise (after `beforeStart`, e.g. a warning).
 */
export async function openDatabaseTarget(config: Config, beforeStart?: () => void): Promise<DatabaseTarget> {
  if (config.database.adminUrl) return { adminUrl: config.database.adminUrl, source: 'DATABASE_URL' };
  const running = runningEmbeddedPort(config.database.dataDir);
  if (running) {
    return { adminUrl: embeddedAdminUrl(running), source: 'embedded (already running)' };
  }
  beforeStart?.();
  const embedded = await startEmbeddedPostgres(config.database.dataDir, config.database.embeddedPort);
  await ensureDatabase(embedded.adminUrl);
  return { adminUrl: embedded.adminUrl, embedded, source: 'embedded (started)' };
}

/** The port from postmaster.pid when the postmaster it names is alive. */
function runningEmbeddedPort(dataDir: string): number | null {
  const pidFile = path.resolve(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return null;
  }
}
