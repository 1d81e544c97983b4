import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import { PROCESS_NAMES, type ProcessName, loadConfig } from '@lib/config/config';
import { SERVER_NODE_FLAGS } from '@lib/config/node-flags';
import { syncBankView } from '@scripts/database-tasks';

/**
 * What every benchmark in bench/ shares: settings from the environment, progress on stderr, the stack's
 * processes (each in its own process group, so a group still alive after its leader exits — start.js's
 * children — is found and stopped too), readiness probes, and percentiles.
 */
export const DIST = path.resolve(__dirname, '..');
export const HOST = '127.0.0.1';

export const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer (got ${raw})`);
  return value;
};

export const progress = (line: string) => process.stderr.write(`${line}\n`);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  lastLines: string[];
}

const managed: Managed[] = [];

/** A built entry point (relative to dist/) as a Node process. */
export function launch(name: string, entry: string, env: NodeJS.ProcessEnv, onLine?: (line: string) => boolean): Managed {
  return launchCommand(name, process.execPath, ['--enable-source-maps', ...SERVER_NODE_FLAGS, path.join(DIST, entry)], env, onLine);
}

function launchCommand(name: string, file: string, args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string) => boolean): Managed {
  const child = spawn(file, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lastLines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handle: Managed = { name, child, exited, lastLines };
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        lastLines.push(line);
        if (lastLines.length > 20) lastLines.shift();
        if (onLine?.(line) ?? true) progress(`  [${name}] ${line}`);
      }
    });
  }
  managed.push(handle);
  return handle;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopManaged(m: Managed): Promise<void> {
  const pid = m.child.pid;
  if (pid === undefined) return;
  if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGTERM');
  await Promise.race([m.exited, sleep(10_000)]);
  if (groupAlive(pid)) {
    progress(`  ${m.name}: processes left in group ${pid} after SIGTERM; sending SIGKILL`);
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** Stops these processes now (a benchmark that restarts the stack, e.g. once per data size) and forgets them. */
export async function stopSome(list: (Managed | undefined)[]): Promise<void> {
  for (const m of list) {
    if (!m) continue;
    await stopManaged(m);
    const at = managed.indexOf(m);
    if (at >= 0) managed.splice(at, 1);
  }
}

let stopping: Promise<void> | undefined;

export function stopAll(): Promise<void> {
  stopping ??= Promise.all([...managed].reverse().map(stopManaged)).then(() => undefined);
  return stopping;
}

export async function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, HOST);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function waitFor(m: Managed, probe: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void m.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${m.name} exited before ${what}; last output:\n${m.lastLines.join('\n')}`);
    if (await probe().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${m.name}: no ${what} within ${timeoutMs / 1000} s; last output:\n${m.lastLines.join('\n')}`);
}

export async function healthy(origin: string): Promise<boolean> {
  const { statusCode, body } = await request(`${origin}/health`);
  await body.dump();
  return statusCode === 200;
}

/** The internal /metrics ports of a bench stack: METRICS_PORT = gateway port + 50, one per process in PROCESS_NAMES order. */
export const metricsBase = (gatewayPort: number) => gatewayPort + 50;

/** The sample lines of a process's /metrics (on the stack's internal port), over every copy of it. */
export async function metricLines(gatewayPort: number, name: ProcessName): Promise<string[]> {
  const lines: string[] = [];
  for (let k = 1; k <= STACK_COPIES; k += 1) {
    const { body } = await request(`http://${HOST}:${metricsPortOf(gatewayPort, name, k)}/metrics`);
    lines.push(...(await body.text()).split('\n'));
  }
  return lines;
}

const sampleValue = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1));

/** http_requests_total of POST /graphql answered 200, from a process's /metrics. */
export async function graphqlRequests(gatewayPort: number, name: ProcessName): Promise<number> {
  let total = 0;
  for (const line of await metricLines(gatewayPort, name)) {
    if (
      line.startsWith('http_requests_total{') &&
      line.includes('route="/graphql"') &&
      line.includes('method="POST"') &&
      line.includes('status_code="200"')
    ) {
      total += sampleValue(line);
    }
  }
  return total;
}

/**
 * Fetches a REST process has sent to a subgraph (`subgraph_fetch_duration_seconds`, at its documented /metrics): over
 * HTTP, or to its own copy of the subgraph with REST_SUBGRAPHS=in-process (docs/decisions/0009-how-operations-execute.md).
 */
export async function restFetches(restOrigin: string, subgraph: string): Promise<number> {
  const { body } = await request(`${restOrigin}/metrics`);
  let total = 0;
  for (const line of (await body.text()).split('\n')) {
    if (line.startsWith('subgraph_fetch_duration_seconds_count{') && line.includes(`subgraph="${subgraph}"`)) total += sampleValue(line);
  }
  return total;
}

/**
 * Sum (seconds) and count of a histogram's series, over every copy of a process, keeping the series whose label text
 * (what lies between the braces) passes `keep`.
 */
export async function histogramTotals(
  gatewayPort: number,
  name: ProcessName,
  metric: string,
  keep: (labels: string) => boolean,
): Promise<{ sum: number; count: number }> {
  const totals = { sum: 0, count: 0 };
  for (const line of await metricLines(gatewayPort, name)) {
    const part = line.startsWith(`${metric}_sum{`) ? 'sum' : line.startsWith(`${metric}_count{`) ? 'count' : null;
    if (part && keep(line.slice(line.indexOf('{') + 1, line.lastIndexOf('}')))) totals[part] += sampleValue(line);
  }
  return totals;
}

/**
 * Where a process stalled over a run, from two readings of its /metrics (every copy): garbage collection by kind (count,
 * seconds, and pauses of 100 ms or more, from `nodejs_gc_duration_seconds`) and the event loop's longest delay since the
 * first reading (`nodejs_eventloop_lag_max_seconds`, reset by each scrape).
 */
export async function stallReading(gatewayPort: number, name: ProcessName): Promise<StallReading> {
  const reading: StallReading = { gc: {}, loopMaxMs: 0 };
  for (const line of await metricLines(gatewayPort, name)) {
    const kind = /kind="(\w+)"/.exec(line)?.[1];
    if (kind && line.startsWith('nodejs_gc_duration_seconds')) {
      const gc = (reading.gc[kind] ??= { count: 0, secs: 0, over100ms: 0 });
      if (line.startsWith('nodejs_gc_duration_seconds_count')) gc.count += sampleValue(line);
      else if (line.startsWith('nodejs_gc_duration_seconds_sum')) gc.secs += sampleValue(line);
      else if (line.includes('le="+Inf"')) gc.over100ms += sampleValue(line);
      else if (line.includes('le="0.1"')) gc.over100ms -= sampleValue(line);
    }
    if (line.startsWith('nodejs_eventloop_lag_max_seconds')) reading.loopMaxMs = Math.max(reading.loopMaxMs, sampleValue(line) * 1000);
  }
  return reading;
}

export interface StallReading {
  gc: Record<string, { count: number; secs: number; over100ms: number }>;
  loopMaxMs: number;
}

/** What happened between two stall readings: GC per kind, and the loop's longest delay (the second reading's). */
export function stallsBetween(before: StallReading, after: StallReading): string {
  const gc = Object.entries(after.gc)
    .map(([kind, a]) => {
      const b = before.gc[kind] ?? { count: 0, secs: 0, over100ms: 0 };
      return `${kind} ${a.count - b.count}× ${(a.secs - b.secs).toFixed(2)} s (${a.over100ms - b.over100ms} ≥ 100 ms)`;
    })
    .join(', ');
  return `GC ${gc}; event loop's longest delay ${after.loopMaxMs.toFixed(0)} ms`;
}

/** Copy k's internal /metrics port of a process: start.js gives copy 1 metricsBase + its index, copy k adds 10 × (k − 1). */
const metricsPortOf = (gatewayPort: number, name: ProcessName, k: number) =>
  metricsBase(gatewayPort) + 10 * (k - 1) + PROCESS_NAMES.indexOf(name);

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values: number[]): number {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface BenchStack {
  stack: Managed;
  /** The floor server, when the benchmark asked for one (floorEnv). */
  floor?: Managed;
  /** Further copies of every process and their load balancer (BENCH_COPIES > 1); their CPU counts as the stack's. */
  extra: Managed[];
  rest: string;
  floorOrigin: string;
}

/** Copies of every stack process (BENCH_COPIES): more than one puts nginx in front of each tier. */
export const STACK_COPIES = envInt('BENCH_COPIES', 1) || 1;
/**
 * Bank micro-batches in flight per REST copy, as docs/operations.md sizes them for replicas (about two on the machine
 * in all): with several copies 1 unless BANK_BATCH_IN_FLIGHT is set; one copy keeps the product's setting.
 */
const BATCH_ENV: NodeJS.ProcessEnv = STACK_COPIES > 1 && !process.env.BANK_BATCH_IN_FLIGHT ? { BANK_BATCH_IN_FLIGHT: '1' } : {};
export const BANK_BATCH_IN_FLIGHT = loadConfig({ ...process.env, ...BATCH_ENV }).bankBatch.inFlight;
/** Copy k (1…) of a tier listens on its front port + COPY_PORT_STEP × k; the front port is nginx's. */
const COPY_PORT_STEP = 300;
/** The built entry point of each stack process, by the name the benchmarks report it under. */
export const STACK_ENTRIES = {
  rest: 'rest-adapters/main.js',
  gateway: 'gateway/src/main.js',
  merchant: 'subgraphs/merchant/src/main.js',
  outlet: 'subgraphs/outlet/src/main.js',
  transaction: 'subgraphs/transaction/src/main.js',
  catalog: 'subgraphs/catalog/src/main.js',
} as const;

/**
 * The whole stack (`scripts/start.js`: migrations, reference and demo data, every process) on its own ports with
 * the webhook dispatcher off, and, given floorEnv, the floor server (bench/floor-server.ts) beside it; resolves
 * when they answer /health. Start-up lines are echoed, the banner (demo credentials, URLs) is not.
 *
 * With BENCH_COPIES=N > 1 every process runs N times, as in production behind a load balancer: nginx (on PATH;
 * `apt-get install nginx-light`) listens on the front ports of REST and the gateway and spreads requests over the
 * copies as deploy/nginx.conf does (startBalancer); start.js runs copy 1 (and the set-up), copies 2…N are started
 * here. Copy k of REST and of the gateway reaches copy k of each subgraph directly (compose's services reach each
 * other by service name, without the load balancer).
 */
export async function startBenchStack(options: {
  databaseUrl: string;
  restPort: number;
  gatewayPort: number;
  floorEnv?: NodeJS.ProcessEnv;
}): Promise<BenchStack> {
  const floorPort = options.restPort + 2;
  const subgraphPorts = {
    merchant: options.gatewayPort + 1,
    outlet: options.gatewayPort + 2,
    transaction: options.gatewayPort + 3,
    catalog: options.gatewayPort + 4,
  };
  const front = { rest: options.restPort, gateway: options.gatewayPort, ...subgraphPorts };
  const copyPort = (tier: keyof typeof front, k: number) => (STACK_COPIES > 1 ? front[tier] + COPY_PORT_STEP * k : front[tier]);
  const copyPorts = Object.values(front).flatMap((port) =>
    Array.from({ length: STACK_COPIES > 1 ? STACK_COPIES : 0 }, (_, k) => port + COPY_PORT_STEP * (k + 1)),
  );
  const allPorts = [options.restPort, floorPort, options.gatewayPort, ...Object.values(subgraphPorts), ...copyPorts];
  const busy = (await Promise.all(allPorts.map(async (port) => ((await portInUse(port)) ? port : null)))).filter((p) => p !== null);
  if (busy.length > 0) throw new Error(`ports in use: ${busy.join(', ')} (set BENCH_REST_PORT / BENCH_GATEWAY_PORT to move the benchmark)`);

  const extra: Managed[] = [];
  if (STACK_COPIES > 1) extra.push(await startBalancer({ rest: front.rest, gateway: front.gateway }, STACK_COPIES));
  const common: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: 'warn',
    HOST,
    ...BATCH_ENV,
  };
  // Copy k reaches the gateway and the subgraphs of copy k directly, as compose's services reach each other by service
  // name without the load balancer; clients come through nginx's front ports.
  const addressesOf = (k: number): NodeJS.ProcessEnv => ({
    GATEWAY_URL: `http://${HOST}:${copyPort('gateway', k)}/graphql`,
    ...Object.fromEntries(
      Object.keys(subgraphPorts).map((name) => [
        `${name.toUpperCase()}_SUBGRAPH_URL`,
        `http://${HOST}:${copyPort(name as keyof typeof front, k)}/graphql`,
      ]),
    ),
  });
  const portsOf = (k: number): NodeJS.ProcessEnv => ({
    REST_PORT: String(copyPort('rest', k)),
    GATEWAY_PORT: String(copyPort('gateway', k)),
    ...Object.fromEntries(
      Object.keys(subgraphPorts).map((name) => [`${name.toUpperCase()}_PORT`, String(copyPort(name as keyof typeof front, k))]),
    ),
  });
  progress(
    `starting the stack (REST ${options.restPort}, gateway ${options.gatewayPort}, subgraphs ${subgraphPorts.merchant}–${subgraphPorts.catalog}, JOBS_CONCURRENCY=0${STACK_COPIES > 1 ? `, ${STACK_COPIES} copies of each behind nginx` : ''}) …`,
  );
  let phase: 'booting' | 'banner' | 'running' = 'booting';
  const stack = launch(
    'stack',
    'scripts/start.js',
    { ...common, JOBS_CONCURRENCY: '0', METRICS_PORT: String(metricsBase(options.gatewayPort)), ...addressesOf(1), ...portsOf(1) },
    (line) => {
      if (phase === 'booting' && line.startsWith('ready in ')) {
        phase = 'banner';
        return false;
      }
      if (phase === 'banner') {
        if (line.startsWith('Ctrl-C stops everything')) phase = 'running';
        return false;
      }
      return true;
    },
  );
  const rest = `http://${HOST}:${options.restPort}`;
  const floorOrigin = `http://${HOST}:${floorPort}`;
  const floor = options.floorEnv
    ? launch('floor', 'bench/floor-server.js', { ...common, FLOOR_PORT: String(floorPort), ...options.floorEnv })
    : undefined;
  if (floor) await waitFor(floor, () => healthy(floorOrigin), 'health', 15_000);
  await waitFor(stack, async () => phase === 'running' && (await healthy(rest)), 'ready stack', 120_000);
  await discardLeftoverJobs(options.databaseUrl);
  await syncBankViewCopy(options.databaseUrl);
  // Copies 2…N once the set-up (migrations, data) is done; subgraphs first, as start.js does.
  for (let k = 2; k <= STACK_COPIES; k += 1) {
    const env = { ...common, JOBS_CONCURRENCY: '0', ...addressesOf(k), ...portsOf(k) };
    const started = (Object.keys(STACK_ENTRIES) as (keyof typeof STACK_ENTRIES)[])
      .sort((a, b) => Number(a === 'rest' || a === 'gateway') - Number(b === 'rest' || b === 'gateway'))
      .map((tier) => ({
        tier,
        process: launch(`${tier}-${k}`, STACK_ENTRIES[tier], { ...env, METRICS_PORT: String(metricsPortOf(options.gatewayPort, tier, k)) }),
      }));
    for (const { tier, process: copy } of started) {
      await waitFor(copy, () => healthy(`http://${HOST}:${copyPort(tier, k)}`), 'health', 60_000);
      extra.push(copy);
    }
  }
  return { stack, floor, extra, rest, floorOrigin };
}

/** The jobs that keep the bank views' copies (a merchant's or an outlet's change each enqueues one). */
const BANK_VIEW_TASKS = "('merchant_profiles', 'payment_target_merchants', 'payment_target_outlets')";

/** Deletes the queued (unlocked) jobs of the bank views' tasks, or of every other task; answers how many. */
async function deleteQueuedJobs(databaseUrl: string, tasks: 'bank views' | 'all but the bank views'): Promise<number> {
  const pg = new PgClient({ connectionString: databaseUrl, application_name: 'bench-setup' });
  await pg.connect();
  try {
    const { rowCount } = await pg.query(
      `delete from graphile_worker._private_jobs
        where locked_at is null
          and task_id in (select id from graphile_worker._private_tasks
                           where identifier ${tasks === 'bank views' ? 'in' : 'not in'} ${BANK_VIEW_TASKS})`,
    );
    return rowCount ?? 0;
  } finally {
    await pg.end();
  }
}

/**
 * The stack runs no job worker, so the jobs a benchmark's load enqueues (a `payment_received` push per event) stay
 * queued. In a kept database they pile up run after run (260,657 after five `bench:psp` runs), and every job fetch,
 * the bank-view sync's included, scans past them: a run's leftovers are discarded before the next one. The
 * bank views' jobs stay: the sync below applies them.
 */
async function discardLeftoverJobs(databaseUrl: string): Promise<void> {
  const discarded = await deleteQueuedJobs(databaseUrl, 'all but the bank views');
  if (discarded) progress(`discarded ${discarded.toLocaleString('en')} jobs an earlier run left queued`);
}

/**
 * The copies of what banks see brought up to date (merchants in the outlet subgraph, 0211; payment targets in the
 * transaction subgraph, 0028):
 * the stack runs no job worker (JOBS_CONCURRENCY=0), so the merchants the demo data and a benchmark's own seed wrote
 * are copied here, and bank lookups and events read the copy, as in production. Call it again after seeding; with
 * `all` after writing merchants with triggers off (which enqueues nothing), or after writing so many that their
 * one job each would take longer than a rebuild: the queued jobs are dropped, and the rebuild copies every merchant
 * in bulk (145,244 merchants: about a minute, where their 435,000 jobs took over ten).
 */
export async function syncBankViewCopy(databaseUrl: string, { all = false } = {}): Promise<void> {
  const started = performance.now();
  if (all) await deleteQueuedJobs(databaseUrl, 'bank views');
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  const { copied_merchants, copied_payment_targets } = await syncBankView(config, databaseUrl, { all });
  progress(
    `bank view copies up to date: ${copied_merchants.toLocaleString('en')} merchants, ${copied_payment_targets.toLocaleString('en')} payment targets (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}

/**
 * nginx on the front ports of REST and the gateway (as deploy/nginx.conf), with keep-alive upstream connections:
 * the gateway's copies round robin, REST's by a bank's lookup key where the request has one and at random otherwise
 * (docs/decisions/0010-caches-and-copies.md).
 */
async function startBalancer(front: Record<'rest' | 'gateway', number>, copies: number): Promise<Managed> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  const upstreams = Object.entries(front).map(
    ([tier, port]) => `  upstream ${tier} {
${tier === 'rest' ? '    hash $rest_affinity consistent;\n' : ''}${Array.from({ length: copies }, (_, k) => `    server ${HOST}:${port + COPY_PORT_STEP * (k + 1)} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen ${HOST}:${port} backlog=4096;
    keepalive_requests 100000;
    location / {
      proxy_pass http://${tier};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }`,
  );
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir};
  proxy_temp_path ${dir};
  fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir};
  scgi_temp_path ${dir};
  map $http_x_api_key_id $rest_affinity { '' $request_id; default $http_x_api_key_id; }
${upstreams.join('\n')}
}
`,
  );
  const lb = launchCommand('nginx', 'nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], process.env);
  const probe = front.rest;
  await waitFor(lb, () => portInUse(probe), 'listening', 10_000).catch((error: Error) => {
    throw new Error(`BENCH_COPIES needs nginx on PATH (apt-get install nginx-light): ${error.message}`);
  });
  return lb;
}
