import os from 'node:os';
import autocannon from 'autocannon';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import {
  HOST,
  envInt,
  healthy,
  launch,
  median,
  metricsBase,
  percentile,
  portInUse,
  progress,
  restFetches,
  stopAll,
  waitFor,
} from './harness';

/**
 * `npm run bench`: GET /references/cities?province_id=… through the full path (REST process → gateway →
 * merchant subgraph → PostgreSQL), with the REST reference cache off and on, against a floor (bare fastify +
 * pg.Pool running the same SQL), all in one invocation. Each target is measured BENCH_ROUNDS times, the
 * targets alternating, each measurement after its own warm-up; the report gives medians over the rounds and
 * the ratio of each target to the floor measured in the same round. A benchmark, not a test: it fails only
 * when it cannot set up or the targets disagree, never because the machine is slow.
 *
 * Requires DATABASE_URL (a dedicated database: the stack migrates it and loads reference and demo data).
 * Progress goes to stderr; the table and a one-line JSON summary (last line) go to stdout.
 */

const SETTINGS = {
  connections: envInt('BENCH_CONNECTIONS', 10),
  warmupSecs: envInt('BENCH_WARMUP_SECS', 2),
  durationSecs: envInt('BENCH_DURATION_SECS', 10),
  rounds: envInt('BENCH_ROUNDS', 3),
};
const restPort = envInt('BENCH_REST_PORT', 18080);
const PORTS = {
  restCacheOff: restPort,
  restCacheOn: restPort + 1,
  floor: restPort + 2,
  gateway: envInt('BENCH_GATEWAY_PORT', 14000),
};
const SUBGRAPH_PORTS = {
  merchant: PORTS.gateway + 1,
  outlet: PORTS.gateway + 2,
  transaction: PORTS.gateway + 3,
  catalog: PORTS.gateway + 4,
};

type TargetKey = 'floor' | 'cacheOff' | 'cacheOn';
interface Target {
  key: TargetKey;
  label: string;
  origin: string;
  path: string;
}
const TARGETS: Target[] = [
  { key: 'floor', label: 'floor (fastify + pg)', origin: `http://${HOST}:${PORTS.floor}`, path: '/floor/cities' },
  { key: 'cacheOff', label: 'full path, cache off', origin: `http://${HOST}:${PORTS.restCacheOff}`, path: '/references/cities' },
  { key: 'cacheOn', label: 'full path, cache on', origin: `http://${HOST}:${PORTS.restCacheOn}`, path: '/references/cities' },
];

// ---------------------------------------------------------------------------------------------------------
// Checks.

async function getJson(url: string): Promise<{ status: number; json: unknown }> {
  const { statusCode, body } = await request(url);
  return { status: statusCode, json: await body.json() };
}

/** Fetches both REST processes have sent to the merchant subgraph (over HTTP or to their own copy of it). */
async function merchantFetches(): Promise<number> {
  const origins = [PORTS.restCacheOff, PORTS.restCacheOn].map((port) => `http://${HOST}:${port}`);
  return (await Promise.all(origins.map((origin) => restFetches(origin, 'merchant')))).reduce((a, b) => a + b, 0);
}

/** Every target answers every province with the same body; the full path really reaches this stack's subgraph. */
async function checkTargets(provinceIds: number[]): Promise<number> {
  const before = await merchantFetches();
  let cities = 0;
  for (const id of provinceIds) {
    const bodies: string[] = [];
    for (const target of TARGETS) {
      const { status, json } = await getJson(`${target.origin}${target.path}?province_id=${id}`);
      if (status !== 200) throw new Error(`${target.label}: province ${id} answered ${status}: ${JSON.stringify(json)}`);
      bodies.push(JSON.stringify(json));
    }
    if (new Set(bodies).size !== 1) throw new Error(`province ${id}: the targets answer different bodies:\n${bodies.join('\n')}`);
    const items = (JSON.parse(bodies[0]) as { items: unknown[] }).items;
    if (items.length === 0) throw new Error(`province ${id}: no cities (reference data not imported?)`);
    cities += items.length;
  }
  const calls = (await merchantFetches()) - before;
  // Cache off: one subgraph call per request; cache on: one per province (first miss).
  if (calls < 2 * provinceIds.length) {
    throw new Error(
      `REST sent the merchant subgraph ${calls} fetches for ${2 * provinceIds.length} uncached REST requests: is the gateway routing elsewhere?`,
    );
  }
  return cities;
}

// ---------------------------------------------------------------------------------------------------------
// Measurement.

interface Run {
  target: TargetKey;
  round: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSecs: number;
  subgraphCalls: number;
  autocannonLatencyMs: { p50: number; p97_5: number; p99: number };
}

/** The load running now, stopped on SIGINT/SIGTERM. */
let current: autocannon.Instance | undefined;
let interrupted = false;

async function load(target: Target, provinceIds: number[], durationSecs: number, latencies?: number[]): Promise<autocannon.Result> {
  const requests = provinceIds.map((id) => ({ method: 'GET', path: `${target.path}?province_id=${id}` }));
  let clients = 0;
  const step = Math.max(1, Math.floor(provinceIds.length / SETTINGS.connections));
  const instance = autocannon({
    url: target.origin,
    connections: SETTINGS.connections,
    duration: durationSecs,
    requests,
    // Each connection cycles through every province, starting at a different one.
    setupClient: (client) => {
      const k = (clients++ * step) % requests.length;
      client.setRequests([...requests.slice(k), ...requests.slice(0, k)]);
    },
  });
  if (latencies) {
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  }
  current = instance;
  try {
    return await instance;
  } finally {
    current = undefined;
  }
}

async function measure(target: Target, round: number, provinceIds: number[]): Promise<Run> {
  if (SETTINGS.warmupSecs > 0) await load(target, provinceIds, SETTINGS.warmupSecs);
  const callsBefore = await merchantFetches();
  const latencies: number[] = [];
  const result = await load(target, provinceIds, SETTINGS.durationSecs, latencies);
  const subgraphCalls = (await merchantFetches()) - callsBefore;
  const sorted = Float64Array.from(latencies).sort();
  const run: Run = {
    target: target.key,
    round,
    rps: result['2xx'] / result.duration,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSecs: result.duration,
    subgraphCalls,
    autocannonLatencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99 },
  };
  const problems = run.non2xx + run.errors > 0 ? `  !! ${run.non2xx} non-2xx, ${run.errors} errors (${run.timeouts} timeouts)` : '';
  progress(
    `  round ${round} ${target.label.padEnd(22)} ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${fmt(run.p50Ms)}  p95 ${fmt(run.p95Ms)}  p99 ${fmt(run.p99Ms)} ms  subgraph calls ${run.subgraphCalls}${problems}`,
  );
  return run;
}

const fmt = (ms: number) => ms.toFixed(2).padStart(6);
const round2 = (x: number) => Math.round(x * 100) / 100;

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    progress(
      'DATABASE_URL is required: the benchmark migrates and seeds it, and the floor queries it directly. Use a dedicated database, e.g.\n' +
        "  psql -h 127.0.0.1 -U root -d postgres -c 'create database qris_bench'\n" +
        '  DATABASE_URL=postgres://root@127.0.0.1:5432/qris_bench npm run bench',
    );
    process.exit(2);
  }
  const started = Date.now();
  const loadBefore = os.loadavg();

  const allPorts = [PORTS.restCacheOff, PORTS.restCacheOn, PORTS.floor, PORTS.gateway, ...Object.values(SUBGRAPH_PORTS)];
  const busy = (await Promise.all(allPorts.map(async (port) => ((await portInUse(port)) ? port : null)))).filter((p) => p !== null);
  if (busy.length > 0) throw new Error(`ports in use: ${busy.join(', ')} (set BENCH_REST_PORT / BENCH_GATEWAY_PORT to move the benchmark)`);

  const common: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', HOST };
  // The stack, cache off. Addresses are set explicitly so an inherited GATEWAY_URL or <NAME>_SUBGRAPH_URL cannot point elsewhere.
  progress('starting the stack (REFERENCE_CACHE_TTL_SECS=0) …');
  let phase: 'booting' | 'banner' | 'running' = 'booting';
  let readyLine = '';
  const stack = launch(
    'stack',
    'scripts/start.js',
    {
      ...common,
      REFERENCE_CACHE_TTL_SECS: '0',
      METRICS_PORT: String(metricsBase(PORTS.gateway)),
      REST_PORT: String(PORTS.restCacheOff),
      GATEWAY_PORT: String(PORTS.gateway),
      GATEWAY_URL: `http://${HOST}:${PORTS.gateway}/graphql`,
      ...Object.fromEntries(
        Object.entries(SUBGRAPH_PORTS).flatMap(([name, port]) => [
          [`${name.toUpperCase()}_PORT`, String(port)],
          [`${name.toUpperCase()}_SUBGRAPH_URL`, `http://${HOST}:${port}/graphql`],
        ]),
      ),
    },
    (line) => {
      // Echo start-up and later warnings; not the banner (demo credentials, URLs).
      if (phase === 'booting' && line.startsWith('ready in ')) {
        phase = 'banner';
        readyLine = line;
        return false;
      }
      if (phase === 'banner') {
        if (line.startsWith('Ctrl-C stops everything')) phase = 'running';
        return false;
      }
      return true;
    },
  );
  const floor = launch('floor', 'bench/floor-server.js', { ...common, FLOOR_PORT: String(PORTS.floor) });
  await waitFor(stack, async () => phase !== 'booting', '"ready in"', 120_000);
  progress(`  stack ${readyLine}`);
  const cacheOn = launch('rest cache on', 'rest-adapters/main.js', {
    ...common,
    REST_PORT: String(PORTS.restCacheOn),
    METRICS_PORT: '0',
    REFERENCE_CACHE_TTL_SECS: '300',
    GATEWAY_URL: `http://${HOST}:${PORTS.gateway}/graphql`,
  });
  await waitFor(floor, () => healthy(TARGETS[0].origin), 'health', 30_000);
  await waitFor(cacheOn, () => healthy(TARGETS[2].origin), 'health', 30_000);

  const db = new PgClient({ connectionString: databaseUrl });
  await db.connect();
  const provinceIds = (await db.query<{ id: number }>('select id from merchant.provinces order by id')).rows.map((r) => r.id);
  await db.end();
  const cities = await checkTargets(provinceIds);
  progress(
    `targets agree on ${provinceIds.length} provinces (${cities} cities); ${SETTINGS.rounds} rounds × 3 targets × (${SETTINGS.warmupSecs} s warm-up + ${SETTINGS.durationSecs} s), ${SETTINGS.connections} connections`,
  );

  const runs: Run[] = [];
  for (let round = 1; round <= SETTINGS.rounds; round++) {
    // Rotate the order each round, so no target always runs first or after the same one.
    for (let i = 0; i < TARGETS.length; i++) {
      if (interrupted) return;
      runs.push(await measure(TARGETS[(i + round - 1) % TARGETS.length], round, provinceIds));
    }
  }
  const loadAfter = os.loadavg();
  await stopAll();

  // Medians over rounds; ratios per round against that round's floor, then their median.
  const summary = Object.fromEntries(
    TARGETS.map((target) => {
      const mine = runs.filter((r) => r.target === target.key);
      const ratios = mine.map((r) => {
        const floorRun = runs.find((f) => f.target === 'floor' && f.round === r.round)!;
        return { rps: r.rps / floorRun.rps, p95: r.p95Ms / floorRun.p95Ms };
      });
      return [
        target.key,
        {
          label: target.label,
          rps: round2(median(mine.map((r) => r.rps))),
          p50Ms: round2(median(mine.map((r) => r.p50Ms))),
          p95Ms: round2(median(mine.map((r) => r.p95Ms))),
          p99Ms: round2(median(mine.map((r) => r.p99Ms))),
          rpsVsFloor: round2(median(ratios.map((x) => x.rps))),
          p95VsFloor: round2(median(ratios.map((x) => x.p95))),
          non2xx: mine.reduce((n, r) => n + r.non2xx, 0),
          errors: mine.reduce((n, r) => n + r.errors, 0),
        },
      ];
    }),
  ) as Record<
    TargetKey,
    {
      label: string;
      rps: number;
      p50Ms: number;
      p95Ms: number;
      p99Ms: number;
      rpsVsFloor: number;
      p95VsFloor: number;
      non2xx: number;
      errors: number;
    }
  >;

  const cpus = os.cpus();
  const lines = [
    '',
    `GET cities by province: medians of ${SETTINGS.rounds} rounds, ${SETTINGS.connections} connections, ${SETTINGS.durationSecs} s per run after ${SETTINGS.warmupSecs} s warm-up`,
    `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after`,
    '',
    `${'target'.padEnd(22)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'req/s ÷ floor'.padStart(14)} ${'p95 ÷ floor'.padStart(12)}`,
    ...TARGETS.map((t) => {
      const s = summary[t.key];
      const flag = s.non2xx + s.errors > 0 ? `  (!! ${s.non2xx} non-2xx, ${s.errors} errors)` : '';
      return `${s.label.padEnd(22)} ${s.rps.toFixed(0).padStart(8)} ${s.p50Ms.toFixed(2).padStart(8)} ${s.p95Ms.toFixed(2).padStart(8)} ${s.p99Ms.toFixed(2).padStart(8)} ${s.rpsVsFloor.toFixed(2).padStart(14)} ${s.p95VsFloor.toFixed(2).padStart(12)}${flag}`;
    }),
    '',
    'Latency percentiles are exact (nearest rank) over every 2xx response time of a run, in ms; ratios are per round against',
    "that round's floor, then the median. req/s counts 2xx responses over the run's duration.",
    '',
  ];
  process.stdout.write(lines.join('\n'));
  const json = {
    benchmark: 'reference-cities',
    date: new Date().toISOString(),
    machine: {
      cpus: cpus.length,
      model: cpus[0]?.model,
      node: process.version,
      loadavg1Before: round2(loadBefore[0]),
      loadavg1After: round2(loadAfter[0]),
    },
    settings: { ...SETTINGS, provinces: provinceIds.length, latency: 'exact nearest-rank percentiles of 2xx response times, ms' },
    summary,
    runs: runs.map((r) => ({ ...r, rps: round2(r.rps), p50Ms: round2(r.p50Ms), p95Ms: round2(r.p95Ms), p99Ms: round2(r.p99Ms) })),
    totalSecs: round2((Date.now() - started) / 1000),
  };
  process.stdout.write(`${JSON.stringify(json)}\n`);
}

const onSignal = (signal: NodeJS.Signals, code: number) => {
  if (interrupted) return;
  interrupted = true;
  progress(`${signal}: stopping the load and every process started …`);
  current?.stop();
  void stopAll().then(() => process.exit(code));
};
process.on('SIGINT', () => onSignal('SIGINT', 130));
process.on('SIGTERM', () => onSignal('SIGTERM', 143));

main().then(
  () => {
    if (!interrupted) process.exit(0);
  },
  (error: Error) => {
    if (interrupted) return;
    progress(`bench failed: ${error.message}`);
    void stopAll().then(() => process.exit(1));
  },
);
