import 'reflect-metadata';
import os from 'node:os';
import autocannon from 'autocannon';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import { loadConfig } from '@lib/config/config';
import { createPartner, issuePartnerCredential, onboardMerchant } from '@scripts/database-tasks';
import { CPU_LABELS, type CpuLabel, CpuSampler } from './cpu';
import { envInt, percentile, progress, startBenchStack, stopAll } from './harness';

/**
 * `npm run bench:partner`: the partner API's heavy reads through the full path (REST → gateway → subgraphs →
 * PostgreSQL) for a merchant holding BENCH_PARTNER_TRANSACTIONS (100,000) transactions over 400 days:
 *
 * - Contract B transactions with limit=500 (the newest 500, no window), against a floor in the same run
 *   (bench/floor-server.ts FLOOR_PARTNER=1: the same rows in one statement, serialised with the same schema);
 * - Contract B transactions, limit=500 within one month; Contract A transactions, monthly (cap 50, window summary);
 * - the scoring summary in both contracts (12 months of daily aggregates).
 *
 * Each target runs twice: at one connection (latency: p50/p95/p99 of an unloaded system, what one partner sees)
 * and at BENCH_CONNECTIONS (throughput ceiling, req/s, and the CPU time per request of every process serving it, from
 * /proc: bench/cpu.ts). The credential's rate is raised so the 60/min default does not cap the measurement. A
 * benchmark, not a test: it fails only when it cannot set up.
 *
 * Requires DATABASE_URL (a dedicated database; the partner PBENCH, its credentials and the merchant are kept for
 * the next run). Progress on stderr; the table and a one-line JSON summary (last line) on stdout.
 */
const SETTINGS = {
  connections: envInt('BENCH_CONNECTIONS', 8),
  warmupSecs: envInt('BENCH_WARMUP_SECS', 2),
  durationSecs: envInt('BENCH_DURATION_SECS', 8),
  transactions: envInt('BENCH_PARTNER_TRANSACTIONS', 100_000),
};
const REST_PORT = envInt('BENCH_REST_PORT', 18280);
const GATEWAY_PORT = envInt('BENCH_GATEWAY_PORT', 14200);
const PARTNER = { code: 'PBENCH', referralCode: 'PBENCHREF', merchantName: 'Bench Toko 100k' };
const BENCH_RATE_PER_MIN = 100_000;
const DAY_MS = 86_400_000;

interface Target {
  label: string;
  origin: 'rest' | 'floor';
  path: (merchantId: string) => string;
  contract: 'A' | 'B';
}

const monthWindow = () => {
  const to = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const from = new Date(to.getTime() - 30 * DAY_MS);
  return `transaction_at_from=${encodeURIComponent(from.toISOString())}&transaction_at_to=${encodeURIComponent(to.toISOString())}`;
};

const TARGETS: Target[] = [
  {
    label: 'B transactions limit=500',
    origin: 'rest',
    contract: 'B',
    path: (m) => `/api/partner/v1/merchants/${m}/transactions?limit=500`,
  },
  { label: 'floor: same 500 rows', origin: 'floor', contract: 'B', path: (m) => `/floor/partner/merchants/${m}/transactions?limit=500` },
  {
    label: 'B transactions 30 days limit=500',
    origin: 'rest',
    contract: 'B',
    path: (m) => `/api/partner/v1/merchants/${m}/transactions?limit=500&${monthWindow()}`,
  },
  {
    label: 'A transactions monthly',
    origin: 'rest',
    contract: 'A',
    path: (m) => `/api/partner/v1/merchants/${m}/transactions?period=monthly`,
  },
  { label: 'B scoring summary', origin: 'rest', contract: 'B', path: (m) => `/api/partner/v1/merchants/${m}/scoring-summary` },
  { label: 'A scoring summary', origin: 'rest', contract: 'A', path: (m) => `/api/partner/v1/merchants/${m}/scoring-summary` },
];

/** The partner, its two credentials (one per contract, high rate) and the referred merchant with its transactions. */
async function seed(
  databaseUrl: string,
  pg: PgClient,
): Promise<{ merchantId: string; credentials: Record<'A' | 'B', { key: string; secret: string }> }> {
  const config = loadConfig();
  const partner = await pg.query('select id from merchant.partners where code = $1', [PARTNER.code]);
  if (partner.rowCount === 0)
    await createPartner(config, databaseUrl, { code: PARTNER.code, name: 'Bench partner', referralCode: PARTNER.referralCode });
  const credentials = {} as Record<'A' | 'B', { key: string; secret: string }>;
  for (const contract of ['A', 'B'] as const) {
    // Secrets are shown once and stored hashed: every run issues fresh credentials.
    const issued = await issuePartnerCredential(config, databaseUrl, {
      partnerCode: PARTNER.code,
      name: `bench ${contract} ${Date.now()}`,
      contract,
      scopes: ['merchant.read', 'transaction.read', 'scoring.read', 'risk-summary.read'],
      mode: 'jwt',
      rateLimitPerMinute: BENCH_RATE_PER_MIN,
    });
    credentials[contract] = { key: issued.credential_key, secret: issued.credential_secret };
  }
  const existing = await pg.query<{ id: string }>('select id from merchant.merchants where name = $1 and referral_code = $2', [
    PARTNER.merchantName,
    PARTNER.referralCode,
  ]);
  const merchantId =
    existing.rows[0]?.id ??
    (
      await onboardMerchant(config, databaseUrl, {
        name: PARTNER.merchantName,
        bankCode: 'BDEMO',
        nmids: ['ID7700000000001'],
        outlets: 1,
        referralCode: PARTNER.referralCode,
      })
    ).merchant_id;
  const { rows } = await pg.query<{ n: string }>('select count(*)::text as n from "transaction".transactions where merchant_id = $1', [
    merchantId,
  ]);
  const missing = SETTINGS.transactions - Number(rows[0].n);
  if (missing > 0) {
    progress(`inserting ${missing} transactions for ${merchantId} …`);
    const started = Date.now();
    // Spread over 400 days ending now; 3 % failed, 1 % refunded; settled next day except the last day.
    await pg.query(
      `insert into "transaction".transactions (id, merchant_id, bank_code, nmid, transaction_code, external_reference, status, gross_amount,
         payment_method, currency, payer_bank_name, mdr_rate, mdr_fee_amount, net_amount_after_mdr, transaction_at, created_at, updated_at,
         settlement_status, settled_at)
       select gen_random_uuid(), $1, 'BDEMO', 'ID7700000000001', 'BENCH-' || $3 || '-' || i, 'REF-' || i,
              case when i % 100 < 3 then 'failed' when i % 100 = 3 then 'refunded' else 'success' end,
              g, 'qris', 'IDR', 'Bank Demo', 0.007, round(g * 0.007), g - round(g * 0.007), at, at, at,
              case when at < now() - interval '1 day' then 'settled' else 'unsettled' end,
              case when at < now() - interval '1 day' then at + interval '1 day' end
         from (select i, 5000 + (i * 7919) % 95000 as g, now() - (i * (400 * 86400.0 / $2)) * interval '1 second' as at
                 from generate_series(1, $2) i) s`,
      [merchantId, missing, Date.now().toString(36)],
    );
    await pg.query('analyze "transaction".transactions');
    progress(`inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return { merchantId, credentials };
}

async function token(rest: string, credential: { key: string; secret: string }): Promise<string> {
  const res = await request(`${rest}/api/partner/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ credential_key: credential.key, credential_secret: credential.secret }),
  });
  const body = (await res.body.json()) as { access_token?: string };
  if (res.statusCode !== 200 || !body.access_token) throw new Error(`token exchange failed (${res.statusCode})`);
  return body.access_token;
}

interface Measured {
  /** 2xx answers in the window. */
  requests: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function run(url: string, headers: Record<string, string>, connections: number, durationSecs: number): Promise<Measured> {
  const latencies: number[] = [];
  const instance = autocannon({ url, connections, duration: durationSecs, headers });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const result = await instance;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    rps: Math.round((latencies.length / result.duration) * 10) / 10,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** CPU milliseconds per request: each process of the path that served the target, and their total. */
type CpuPerRequest = Partial<Record<CpuLabel, number>> & { total: number };

/** The stack's processes (the load balancer included) for a REST target, the floor and its backends for the floor. */
function perRequest(secs: Record<CpuLabel, number>, requests: number, origin: Target['origin']): CpuPerRequest {
  const labels = CPU_LABELS.filter((label) =>
    origin === 'floor' ? label === 'floor' || label === 'pg:floor' : !['floor', 'pg:floor', 'loadgen'].includes(label),
  );
  const out: CpuPerRequest = { total: 0 };
  for (const label of labels) {
    const ms = requests > 0 ? (secs[label] * 1000) / requests : NaN;
    out[label] = Math.round(ms * 100) / 100;
    out.total += ms;
  }
  out.total = Math.round(out.total * 100) / 100;
  return out;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    progress(
      'DATABASE_URL is required (a dedicated database), e.g.\n' +
        "  psql -h 127.0.0.1 -U root -d postgres -c 'create database qris_bench_partner'\n" +
        '  DATABASE_URL=postgres://root@127.0.0.1:5432/qris_bench_partner npm run bench:partner',
    );
    process.exit(2);
  }
  const loadBefore = os.loadavg();
  const bench = await startBenchStack({ databaseUrl, restPort: REST_PORT, gatewayPort: GATEWAY_PORT, floorEnv: { FLOOR_PARTNER: '1' } });
  const pg = new PgClient({ connectionString: databaseUrl, application_name: 'bench-partner' });
  await pg.connect();
  try {
    const { merchantId, credentials } = await seed(databaseUrl, pg);
    const tokens = { A: await token(bench.rest, credentials.A), B: await token(bench.rest, credentials.B) };
    const cpu = new CpuSampler(
      bench.stack.child.pid!,
      bench.floor!.child.pid,
      pg,
      bench.extra.map((m) => m.child.pid!),
    );
    const rows: { label: string; latency: Measured; throughput: Measured; cpuMsPerRequest: CpuPerRequest }[] = [];
    for (const target of TARGETS) {
      const url = `${target.origin === 'rest' ? bench.rest : bench.floorOrigin}${target.path(merchantId)}`;
      const headers = { authorization: `Bearer ${tokens[target.contract]}` };
      const check = await request(url, { headers });
      const body = await check.body.text();
      if (check.statusCode !== 200) throw new Error(`${target.label}: ${check.statusCode} ${body.slice(0, 200)}`);
      progress(`${target.label}: ${body.length} bytes; warming up …`);
      await run(url, headers, SETTINGS.connections, SETTINGS.warmupSecs);
      const latency = await run(url, headers, 1, SETTINGS.durationSecs);
      const cpuBefore = await cpu.snapshot();
      const throughput = await run(url, headers, SETTINGS.connections, SETTINGS.durationSecs);
      const cpuMsPerRequest = perRequest(CpuSampler.delta(cpuBefore, await cpu.snapshot()), throughput.requests, target.origin);
      progress(
        `  1 connection: p95 ${latency.p95Ms.toFixed(1)} ms; ${SETTINGS.connections} connections: ${throughput.rps} req/s, ${cpuMsPerRequest.total.toFixed(2)} ms CPU each`,
      );
      rows.push({ label: target.label, latency, throughput, cpuMsPerRequest });
    }
    const loadAfter = os.loadavg();
    await stopAll();
    const floor = rows.find((r) => r.label.startsWith('floor'))!;
    const fmt = (x: number) => x.toFixed(1).padStart(8);
    const out = [
      `partner API benchmark: ${SETTINGS.transactions} transactions of one merchant; ${os.cpus().length} CPUs; load ${loadBefore[0].toFixed(2)} → ${loadAfter[0].toFixed(2)}`,
      `${'target'.padEnd(36)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'req/s'.padStart(8)}${'× floor'.padStart(9)}${'CPU ms'.padStart(8)}${'non2xx'.padStart(8)}`,
      ...rows.map(
        (r) =>
          `${r.label.padEnd(36)}${fmt(r.latency.p50Ms)}${fmt(r.latency.p95Ms)}${fmt(r.latency.p99Ms)}${fmt(r.throughput.rps)}${(r.throughput.rps / floor.throughput.rps).toFixed(3).padStart(9)}${fmt(r.cpuMsPerRequest.total)}${String(r.latency.non2xx + r.throughput.non2xx).padStart(8)}`,
      ),
      `(latency at 1 connection, req/s at ${SETTINGS.connections} connections, ${SETTINGS.durationSecs} s each after ${SETTINGS.warmupSecs} s warm-up;`,
      ` CPU ms: CPU time per request of the processes serving it, PostgreSQL's backends included, in the ${SETTINGS.connections}-connection window)`,
    ];
    // Issue 18 §2: the 500-row Contract B list at ≥ 40 % of its floor's req/s.
    const bList = rows.find((r) => r.label === 'B transactions limit=500')!.throughput.rps / floor.throughput.rps;
    const aims = { bListAtLeast40PctOfFloor: bList >= 0.4 };
    out.push(
      `Aim (issue 18 §2): B transactions limit=500 ≥ 40 % of the floor's req/s: ${aims.bListAtLeast40PctOfFloor ? 'met' : 'NOT met'} (${(bList * 100).toFixed(1)} %)`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({ transactions: SETTINGS.transactions, floor_rps: floor.throughput.rps, results: rows, aims, load: { before: loadBefore, after: loadAfter } })}\n`,
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
