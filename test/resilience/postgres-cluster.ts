import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { sleep } from './processes';

/**
 * Real PostgreSQL servers from the machine's own packages (Debian's postgresql-NN: initdb, pg_ctl, pg_basebackup,
 * postgres; the embedded npm server has no pg_basebackup), each with its own data folder and port, as the machines of
 * a replicated database are: a primary, streaming standbys made with pg_basebackup, WAL archived to a folder. Run as
 * the `postgres` OS user when the test runs as root (initdb refuses root). Loopback only, trust authentication.
 */
const run = promisify(execFile);

/** The newest /usr/lib/postgresql/NN/bin with pg_basebackup (PG_BINDIR overrides). */
export function postgresBinDir(): string {
  const explicit = process.env.PG_BINDIR;
  if (explicit) return explicit;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_basebackup')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries: apt-get install -y postgresql (or set PG_BINDIR)');
  return path.join(root, versions[0], 'bin');
}

const asRoot = process.getuid?.() === 0;
/** The command line that runs `binary` as the server's OS user. */
function command(binary: string, args: string[]): [string, string[]] {
  const file = path.join(postgresBinDir(), binary);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

export async function pgTool(binary: string, args: string[]): Promise<string> {
  const [file, argv] = command(binary, args);
  const { stdout } = await run(file, argv, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** A folder the server's OS user owns (`prefix` under the temporary folder). */
export async function serverFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o700);
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  return dir;
}

/** `name` inside a server folder, owned by the server's OS user. */
export async function serverSubfolder(parent: string, name: string): Promise<string> {
  const dir = path.join(parent, name);
  await mkdir(dir, { mode: 0o700 });
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  return dir;
}

/**
 * WAL archiving into `archiveDir`, idempotent: a segment already there with the same bytes counts as archived, so the
 * primary and a standby with archive_mode=always can both archive into one folder (the standby's copy covers what a
 * primary that died had not archived yet).
 */
export function archiveSettings(archiveDir: string): Record<string, string> {
  return {
    archive_mode: 'on',
    archive_command: `'if [ -f ${archiveDir}/%f ]; then cmp -s %p ${archiveDir}/%f; else cp %p ${archiveDir}/%f.$$ && mv ${archiveDir}/%f.$$ ${archiveDir}/%f; fi'`,
  };
}

/** A file the server's OS user owns. */
async function pgOwned(file: string, content: string): Promise<void> {
  await writeFile(file, content);
  if (asRoot) await run('chown', ['postgres:postgres', file]);
}

/** Settings every server of the cluster has (appended to postgresql.conf, so a base backup carries them). */
const COMMON_SETTINGS = {
  listen_addresses: "'127.0.0.1'",
  unix_socket_directories: "''",
  max_connections: '200',
  wal_level: 'replica',
  max_wal_senders: '5',
  hot_standby: 'on',
  shared_buffers: "'64MB'",
  // The WAL a standby that fell behind (or a base backup in progress) still needs.
  wal_keep_size: "'256MB'",
};

export class PostgresServer {
  private child?: ChildProcess;
  readonly output: string[] = [];

  constructor(
    readonly dataDir: string,
    readonly port: number,
    /** Settings on the command line of this server only (not copied by a base backup), e.g. synchronous_standby_names. */
    private settings: Record<string, string> = {},
  ) {}

  /** initdb, the common settings and `extra` (e.g. WAL archiving) into a fresh data folder. */
  static async init(dataDir: string, port: number, extra: Record<string, string> = {}): Promise<PostgresServer> {
    await pgTool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--encoding=UTF8', '--no-sync']);
    await appendFile(path.join(dataDir, 'postgresql.conf'), settingLines({ ...COMMON_SETTINGS, ...extra }));
    return new PostgresServer(dataDir, port);
  }

  /**
   * A streaming standby of `primary` in `dataDir`: pg_basebackup with the WAL streamed alongside (-X stream) and the
   * primary's address written (-R), named `name` (what synchronous_standby_names lists).
   */
  static async standbyOf(primary: PostgresServer, dataDir: string, port: number, name: string): Promise<PostgresServer> {
    await PostgresServer.baseBackup(primary, dataDir, ['-R', '--no-sync', '--checkpoint=fast']);
    // Overrides what -R wrote: the name the primary knows this standby by.
    await appendFile(
      path.join(dataDir, 'postgresql.auto.conf'),
      `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'\n`,
    );
    return new PostgresServer(dataDir, port);
  }

  /** A base backup of `primary` into `dataDir` (plain format, with the WAL it needs streamed alongside). */
  static async baseBackup(primary: PostgresServer, dataDir: string, flags = ['--checkpoint=fast']): Promise<void> {
    const from = ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'];
    await pgTool('pg_basebackup', [...from, '-D', dataDir, '-X', 'stream', ...flags]);
  }

  /**
   * A fresh server from a base backup copied to `dataDir`, replaying archived WAL (restore_command) up to
   * `targetTime` along the newest timeline, then promoted: point-in-time recovery. Its own WAL is not archived.
   */
  static async restore(backupDir: string, dataDir: string, port: number, archiveDir: string, targetTime: string): Promise<PostgresServer> {
    await run('cp', ['-a', backupDir, dataDir]);
    await pgOwned(path.join(dataDir, 'recovery.signal'), '');
    await appendFile(
      path.join(dataDir, 'postgresql.auto.conf'),
      settingLines({
        restore_command: `'cp ${archiveDir}/%f %p'`,
        recovery_target_time: `'${targetTime}'`,
        recovery_target_timeline: "'latest'",
        recovery_target_action: "'promote'",
      }),
    );
    return new PostgresServer(dataDir, port, { archive_mode: 'off' });
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  setSettings(settings: Record<string, string>): void {
    this.settings = settings;
  }

  /** Starts the postmaster in its own process group (the "machine"), and waits until it accepts connections. */
  async start(timeoutMs = 60_000): Promise<void> {
    const flags = Object.entries({ port: String(this.port), ...this.settings }).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
    const [file, argv] = command('postgres', ['-D', this.dataDir, ...flags]);
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        this.output.push(...chunk.split('\n').filter(Boolean));
        if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
      });
    }
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`postgres on ${this.port} exited with ${child.exitCode}:\n${this.output.join('\n')}`);
      if (await this.accepting()) return;
      await sleep(100);
    }
    throw new Error(`postgres on ${this.port} did not start within ${timeoutMs} ms:\n${this.output.join('\n')}`);
  }

  async accepting(): Promise<boolean> {
    const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** The postmaster's process id (postmaster.pid's first line). */
  postmasterPid(): number {
    return Number(readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /**
   * The machine dies: SIGKILL to the postmaster, then to every process it left (backends, WAL sender), as a power
   * loss would take them at the same instant. Nothing is flushed, nothing is said to any client.
   */
  async killMachine(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    process.kill(this.postmasterPid(), 'SIGKILL');
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
  }

  /** pg_ctl promote: the standby ends recovery and becomes a primary (waits until it accepts writes). */
  async promote(): Promise<void> {
    await pgTool('pg_ctl', ['promote', '-w', '-t', '30', '-D', this.dataDir]);
  }

  /** A fast shutdown (pg_ctl stop -m fast), waiting for the postmaster to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await Promise.race([exited, sleep(15_000)]);
    if (child.exitCode === null && child.signalCode === null) await this.killMachine();
  }

  async query<T extends object = Record<string, unknown>>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
}

function settingLines(settings: Record<string, string>): string {
  return `\n${Object.entries(settings)
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n')}\n`;
}

/** Removes a cluster's folders (the servers must be stopped). */
export async function removeFolders(...dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * The stable address the platform's processes connect to, which follows the primary as a Kubernetes `-rw` Service of
 * CloudNativePG or Patroni's endpoint does: TCP passed through to the current primary's port. `switchTo(null)` while
 * no primary is known: connections are refused (reset at once), never left hanging. Switching cuts every connection
 * to the old target, as a fenced primary's are.
 */
export class TcpForwarder {
  private server?: net.Server;
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();

  constructor(
    readonly port: number,
    private target: number | null,
  ) {}

  get url(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      client.on('error', () => undefined);
      const target = this.target;
      if (target === null) {
        client.resetAndDestroy();
        return;
      }
      const upstream = net.connect(target, '127.0.0.1');
      const pair = { client, upstream };
      this.pairs.add(pair);
      const close = () => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      upstream.on('error', close);
      upstream.on('close', close);
      client.on('close', close);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  switchTo(target: number | null): void {
    this.target = target;
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.switchTo(null);
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
