import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import { Client as PgClient } from 'pg';
import { loadConfig } from '@lib/config/config';
import { CPU_LABELS, CpuSampler } from './cpu';
import { type ClientRequest, type Tenant, bankLookup, bankPost, jakartaNow, sendOnce } from './demo-clients';
import { envInt, percentile, progress, sleep, stallReading, stallsBetween, startBenchStack, stopAll } from './harness';
import { benchTenants } from './tenants';

/**
 * `npm run bench:mixed`: every API family at once, each endpoint at its documented (psp-api.md §8, partner-api.md §8)
 * or a realistic rate (core, point of sale), open loop, for BENCH_MIXED_SECS (120 s), on the whole stack co-located
 * with the load generator. Reports p50/p95/p99 per endpoint against the documented p95 target and the issue's aim
 * (p95 ≤ target / 5), the non-2xx answers, and CPU seconds per process over the run.
 *
 * Throughput ceilings against floors are `npm run bench:psp` (by-NMID cached and uncached, events) and
 * `npm run bench:partner`; this benchmark is about latency under a realistic mix. At 1× the demo data and demo
 * credentials only (bank BDEMO, partner PDEMO, the demo owner), plus a session written for the owner; at k× k tenants
 * (bench/tenants.ts), each sending the 1× mix with credentials of its own. A benchmark, not a test.
 */
const SECS = envInt('BENCH_MIXED_SECS', 120);
/**
 * Seconds the mix runs before the measured SECS, at the same rates, not counted: the first requests of a run start at
 * the same instant on every endpoint and meet code the JIT has not compiled yet, which no later second does.
 */
const WARMUP_SECS = envInt('BENCH_MIXED_WARMUP_SECS', 10);
/**
 * Tenants, each sending the documented mix with its own bank keys, merchant, partner credentials and owner
 * (BENCH_MIXED_SCALE=2: the demo's and one made for the run, twice the documented mix and no rate limit met twice).
 */
const SCALE = envInt('BENCH_MIXED_SCALE', 1) || 1;
const REST_PORT = envInt('BENCH_REST_PORT', 18580);
const GATEWAY_PORT = envInt('BENCH_GATEWAY_PORT', 14500);

interface Endpoint {
  family: 'psp' | 'partner' | 'core' | 'pos';
  label: string;
  /** Requests per second of one tenant, open loop (autocannon takes whole numbers ≥ 1). */
  rate: number;
  /** Documented p95 target in ms, when there is one. */
  targetP95Ms?: number;
  /** A request of tenant `t`, signed with its keys or carrying its tokens. */
  build: (t: Tenant) => ClientRequest;
}

function endpoints(internalKey: string): Endpoint[] {
  let n = 0;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const pos = (t: Tenant) => ({ 'x-internal-api-key': internalKey, 'x-merchant-id': t.merchantId });
  const run = randomUUID().slice(0, 8);
  return [
    {
      family: 'psp',
      label: 'GET /api/psp/v1/merchants',
      rate: 1,
      targetP95Ms: 300,
      build: (t) => bankLookup('/api/psp/v1/merchants?limit=100', t.bank),
    },
    {
      family: 'psp',
      label: 'GET /api/psp/v1/merchants/{id}',
      rate: 10,
      targetP95Ms: 100,
      build: (t) => bankLookup(`/api/psp/v1/merchants/${t.merchantId}`, t.bank),
    },
    {
      family: 'psp',
      label: 'GET /api/psp/v1/merchants/by-nmid/{nmid}',
      rate: 16,
      targetP95Ms: 50,
      build: (t) => bankLookup(`/api/psp/v1/merchants/by-nmid/${t.nmids[n++ % t.nmids.length]}`, t.bank),
    },
    {
      family: 'psp',
      label: 'GET /api/psp/v1/merchants/search',
      rate: 2,
      build: (t) => bankLookup(`/api/psp/v1/merchants/search?phone=${encodeURIComponent(t.phone)}`, t.bank),
    },
    {
      family: 'psp',
      label: 'POST /psp/v1/events',
      rate: 90,
      build: (t) => {
        const id = `MIX-${run}-${n++}`;
        return bankPost(
          '/psp/v1/events',
          {
            external_event_id: id,
            event_type: 'transaction.success',
            nmid: t.nmids[n % t.nmids.length],
            gross_amount: 25_000,
            transaction_code: `TRX-${id}`,
            transaction_at: jakartaNow(),
            payer_bank_name: 'BCA',
          },
          t.bank,
        );
      },
    },
    {
      family: 'psp',
      label: 'POST /psp/v1/settlements',
      rate: 10,
      build: (t) => {
        const id = `MIX-SETL-${run}-${n++}`;
        return bankPost(
          '/psp/v1/settlements',
          {
            external_event_id: id,
            settlement_id: id,
            nmid: t.nmids[n % t.nmids.length],
            bank_code: t.bank.code,
            gross_amount: 0,
            mdr_total: 0,
            net_amount: 0,
            settlement_date: jakartaNow().slice(0, 10),
            completed_at: jakartaNow(),
          },
          t.bank,
        );
      },
    },
    // Each partner credential at 1 req/s = its whole 60/min budget (partner-api.md §8).
    {
      family: 'partner',
      label: 'GET partner A transactions (monthly)',
      rate: 1,
      build: (t) => ({ method: 'GET', path: `/api/partner/v1/merchants/${t.merchantId}/transactions`, headers: bearer(t.tokens.partnerA) }),
    },
    {
      family: 'partner',
      label: 'GET partner B scoring-summary',
      rate: 1,
      build: (t) => ({
        method: 'GET',
        path: `/api/partner/v1/merchants/${t.merchantId}/scoring-summary`,
        headers: bearer(t.tokens.partnerB),
      }),
    },
    {
      family: 'core',
      label: 'GET /references/cities',
      rate: 10,
      build: () => ({ method: 'GET', path: '/references/cities?province_id=31', headers: {} }),
    },
    {
      family: 'core',
      label: 'GET /auth/profile',
      rate: 2,
      build: (t) => ({ method: 'GET', path: '/auth/profile', headers: bearer(t.tokens.user) }),
    },
    {
      family: 'core',
      label: 'GET /merchant/transactions',
      rate: 5,
      build: (t) => ({ method: 'GET', path: '/merchant/transactions?period=month', headers: bearer(t.tokens.user) }),
    },
    {
      family: 'core',
      label: 'GET /merchant/payment-terminal',
      rate: 2,
      build: (t) => ({ method: 'GET', path: '/merchant/payment-terminal', headers: bearer(t.tokens.user) }),
    },
    {
      family: 'pos',
      label: 'GET /poslite/catalog/products',
      rate: 2,
      build: (t) => ({ method: 'GET', path: '/poslite/catalog/products?limit=50', headers: pos(t) }),
    },
    {
      family: 'pos',
      label: 'GET /poslite/sync/pull (products)',
      rate: 5,
      build: (t) => ({ method: 'GET', path: '/poslite/sync/pull?entity=products&limit=200', headers: pos(t) }),
    },
    {
      family: 'pos',
      label: 'GET /merchant/poslite/sales/orders',
      rate: 2,
      build: (t) => ({ method: 'GET', path: '/merchant/poslite/sales/orders?limit=50', headers: bearer(t.tokens.user) }),
    },
  ];
}

interface Result {
  endpoint: Endpoint;
  sent: number;
  statusCounts: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
  /** The slowest answers: seconds into the run when sent, and milliseconds taken. */
  slowest: { at: number; ms: number }[];
}

/**
 * One open-loop autocannon instance per endpoint, all at once, at its rate times the tenants; every request built (and
 * signed) when sent, request i of an endpoint for tenant i mod k.
 */
async function runAll(origin: string, list: Endpoint[], tenants: Tenant[]): Promise<Result[]> {
  return Promise.all(
    list.map(async (endpoint) => {
      const latencies: number[] = [];
      const slowest: { at: number; ms: number }[] = [];
      const statusCounts: Record<string, number> = {};
      const measuredFrom = performance.now() + WARMUP_SECS * 1000;
      const rate = endpoint.rate * tenants.length;
      let i = 0;
      const options = {
        url: origin,
        connections: Math.max(1, Math.ceil(rate / 10)),
        duration: WARMUP_SECS + SECS,
        overallRate: rate,
        requests: [{ setupRequest: (req: object) => ({ ...req, ...endpoint.build(tenants[i++ % tenants.length]) }) }],
      };
      const instance = autocannon(options as unknown as autocannon.Options);
      let sent = 0;
      instance.on('response', (_client, status, _bytes, ms) => {
        const sentAt = performance.now() - ms;
        if (sentAt < measuredFrom) return;
        sent += 1;
        statusCounts[status] = (statusCounts[status] ?? 0) + 1;
        if (status < 400) latencies.push(ms);
        slowest.push({ at: Math.round((sentAt - measuredFrom) / 100) / 10, ms: Math.round(ms) });
        if (slowest.length > 6) slowest.sort((a, b) => b.ms - a.ms).pop();
      });
      await instance;
      const sorted = Float64Array.from(latencies).sort();
      return {
        endpoint,
        sent,
        statusCounts,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        slowest: slowest.sort((a, b) => b.ms - a.ms).slice(0, 5),
      };
    }),
  );
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    progress(
      'DATABASE_URL is required (a dedicated database), e.g.\n' +
        "  psql -h 127.0.0.1 -U root -d postgres -c 'create database qris_bench_mixed'\n" +
        '  DATABASE_URL=postgres://root@127.0.0.1:5432/qris_bench_mixed npm run bench:mixed',
    );
    process.exit(2);
  }
  const config = loadConfig();
  const bench = await startBenchStack({ databaseUrl, restPort: REST_PORT, gatewayPort: GATEWAY_PORT });
  const pg = new PgClient({ connectionString: databaseUrl, application_name: 'bench-mixed' });
  await pg.connect();
  try {
    const tenants = await benchTenants(SCALE, { rest: bench.rest, pg, config, adminUrl: databaseUrl });
    const list = endpoints(config.secrets.internalApiKey);
    for (const e of list) for (const t of tenants) await sendOnce(bench.rest, e.build(t));
    const total = list.reduce((a, e) => a + e.rate * SCALE, 0);
    progress(`${list.length} endpoints, ${total.toFixed(1)} req/s in all, for ${WARMUP_SECS} s of warm-up and ${SECS} s measured …`);
    const cpu = new CpuSampler(
      bench.stack.child.pid!,
      undefined,
      pg,
      bench.extra.map((m) => m.child.pid!),
    );
    const running = runAll(bench.rest, list, tenants);
    // CPU, stalls and load are read over the measured seconds only.
    await sleep(WARMUP_SECS * 1000);
    const loadBefore = os.loadavg();
    const before = await cpu.snapshot();
    const stallsBefore = await stallReading(GATEWAY_PORT, 'rest');
    const results = await running;
    const after = await cpu.snapshot();
    const stalls = stallsBetween(stallsBefore, await stallReading(GATEWAY_PORT, 'rest'));
    const loadAfter = os.loadavg();
    const cpuSecs = CpuSampler.delta(before, after);
    await stopAll();

    const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–').padStart(8);
    const lines = [
      `mixed load: ${total.toFixed(1)} req/s over ${list.length} endpoints for ${SECS} s; ${os.cpus().length} CPUs; load ${loadBefore[0].toFixed(2)} → ${loadAfter[0].toFixed(2)}`,
      `tenants: ${tenants.length} (${tenants.map((t) => t.bank.code).join(', ')}), each the documented mix with its own bank keys, merchant, partner credentials and owner`,
      `${'endpoint'.padEnd(44)}${'req/s'.padStart(7)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}${'target'.padStart(8)}  aim (≤ target/5)  non-2xx`,
      ...results.map((r) => {
        const non2xx =
          Object.entries(r.statusCounts)
            .filter(([s]) => Number(s) >= 300)
            .map(([s, c]) => `${s}×${c}`)
            .join(' ') || '0';
        const aim = r.endpoint.targetP95Ms ? (r.p95 <= r.endpoint.targetP95Ms / 5 ? 'met' : 'missed') : '–';
        return `${r.endpoint.label.padEnd(44)}${(r.sent / SECS).toFixed(1).padStart(7)}${fmt(r.p50)}${fmt(r.p95)}${fmt(r.p99)}${(r.endpoint.targetP95Ms ? String(r.endpoint.targetP95Ms) : '–').padStart(8)}  ${aim.padEnd(16)} ${non2xx}`;
      }),
      'slowest answers (s into the run: ms):',
      ...results.map((r) => `  ${r.endpoint.label.padEnd(42)} ${r.slowest.map((x) => `${x.at}: ${x.ms}`).join(', ')}`),
      `REST process: ${stalls}`,
      `CPU seconds over the run: ${CPU_LABELS.filter((l) => cpuSecs[l] > 0)
        .map((l) => `${l} ${cpuSecs[l].toFixed(1)}`)
        .join(', ')}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({ secs: SECS, load: { before: loadBefore, after: loadAfter }, cpuSecs, scale: SCALE, tenants: tenants.map((t) => t.bank.code), results: results.map((r) => ({ label: r.endpoint.label, rate: r.endpoint.rate * SCALE, sent: r.sent, p50: r.p50, p95: r.p95, p99: r.p99, target: r.endpoint.targetP95Ms ?? null, statusCounts: r.statusCounts })) })}\n`,
    );
  } finally {
    await pg.end().catch(() => undefined);
    await stopAll();
  }
}

main().catch(async (error) => {
  progress(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await stopAll();
  process.exit(1);
});
