import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../resilience/processes';

/**
 * A real PgBouncer (Debian's package, 1.18 here: no prepared statements across transactions) in transaction mode
 * in front of one PostgreSQL server, for the tests that run the platform's pools through it. Started as the
 * `postgres` OS user when the test runs as root (PgBouncer refuses root). Clients authenticate with SCRAM against its
 * user list (the subgraph roles and their password); it logs in to the server with the same.
 */
export class PgBouncer {
  private child?: ChildProcess;
  private readonly output: string[] = [];

  private constructor(
    private readonly folder: string,
    readonly port: number,
  ) {}

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  static async start(server: { host: string; port: number }, users: Record<string, string>): Promise<PgBouncer> {
    const binary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((file) => existsSync(file));
    if (!binary) throw new Error('PgBouncer is not installed: apt-get install -y pgbouncer (.ci/run does)');
    const folder = mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
    const port = await freePort();
    const bouncer = new PgBouncer(folder, port);
    const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
    writeFileSync(
      path.join(folder, 'users.txt'),
      Object.entries(users)
        .map(([user, password]) => `${quote(user)} ${quote(password)}\n`)
        .join(''),
    );
    writeFileSync(
      path.join(folder, 'pgbouncer.ini'),
      [
        '[databases]',
        // Every database name passes through to the one server.
        `* = host=${server.host} port=${server.port}`,
        '[pgbouncer]',
        `listen_addr = 127.0.0.1`,
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'pool_mode = transaction',
        'auth_type = scram-sha-256',
        `auth_file = ${path.join(folder, 'users.txt')}`,
        `admin_users = ${Object.keys(users)[0]}`,
        'max_client_conn = 1000',
        // Few server connections per database and role: the machine's server is shared (100 connections).
        'default_pool_size = 4',
        'server_idle_timeout = 5',
        // After a failover: try the address again every second (default 15 s), and answer a client that waits for
        // a server connection with an error after 3 s (default 120 s) instead of holding its request.
        'server_login_retry = 1',
        'server_connect_timeout = 2',
        'query_wait_timeout = 3',
        'ignore_startup_parameters = extra_float_digits',
        'log_connections = 0',
        'log_disconnections = 0',
      ].join('\n'),
    );
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', folder]);
    chmodSync(folder, 0o700);
    const ini = path.join(folder, 'pgbouncer.ini');
    const [file, args] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ini]] : [binary, [ini]];
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    bouncer.child = child;
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => bouncer.output.push(chunk.toString()));
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`PgBouncer did not start:\n${bouncer.output.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return bouncer;
  }

  /** SHOW STATS of its admin console: transactions and queries it passed on, summed over every database. */
  async stats(user: string, password: string): Promise<{ transactions: number; queries: number }> {
    const client = new Client({ host: '127.0.0.1', port: this.port, database: 'pgbouncer', user, password });
    await client.connect();
    try {
      const { rows } = await client.query<{ total_xact_count: string; total_query_count: string }>('SHOW STATS');
      return {
        transactions: rows.reduce((n, r) => n + Number(r.total_xact_count), 0),
        queries: rows.reduce((n, r) => n + Number(r.total_query_count), 0),
      };
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      // SIGINT: PgBouncer's safe shutdown, which waits for every client; SIGTERM closes at once.
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.folder, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
