import 'reflect-metadata';
import { createHmac, randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Client as PgClient } from 'pg';
import { Pool as UndiciPool, request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '@lib/config/config';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { SUBGRAPHS } from '@subgraphs';
import { secretBoxFor } from '@lib/crypto/secret-box';
import { BankService } from '@subgraphs/merchant/src/modules/bank/bank.service';
import { MerchantService } from '@subgraphs/merchant/src/modules/merchant/merchant.service';
import { OutletService } from '@subgraphs/outlet/src/modules/outlet/outlet.service';
import { CPU_LABELS, type CpuLabel, CpuSampler } from './cpu';
import type { ProcessName } from '@lib/config/config';
import {
  HOST,
  BANK_BATCH_IN_FLIGHT,
  STACK_COPIES,
  envInt,
  graphqlRequests,
  histogramTotals,
  median,
  percentile,
  progress,
  sleep,
  startBenchStack,
  syncBankViewCopy,
  stopAll,
} from './harness';

/**
 * `npm run bench:psp`: the bank PSP API (psp-api.md) through the full path (REST process → gateway →
 * subgraphs → PostgreSQL) against floors (bench/floor-server.ts with FLOOR_PSP=1: bare fastify + pg.Pool doing
 * the same work in one statement), all in one invocation:
 *
 * - `GET /api/psp/v1/merchants/by-nmid/{nmid}`, lookup-key signed: the throughput ceiling with the REST
 *   process's 30 s response cache missing (every request a (bank, NMID) pair not asked for in the last 33 s)
 *   and hitting (a pass over the pairs right before the run), keys rotated so that no key exceeds its
 *   1,000/min; and, first, latency at the documented rate (1,000/min, one key, open loop), cached and uncached.
 * - `POST /psp/v1/events`, event-key signed, every request a new external_event_id of type
 *   transaction.success on a resolvable NMID: the throughput ceiling (keys rotated, 6,000/min each), then
 *   every event id sent is checked against what was stored: none lost, none stored twice.
 * - CPU time of every process (REST, gateway, four subgraphs, floor, PostgreSQL backends of this database,
 *   the load generator) per 1,000 requests, from /proc/<pid>/stat around each measured run.
 *
 * The ceilings are measured BENCH_ROUNDS times, the targets rotating, each after its own warm-up; the report
 * gives medians over the rounds and ratios to the floor of the same round. A benchmark, not a test: it fails
 * only when it cannot set up or the targets disagree, never because the machine is slow.
 *
 * Requires DATABASE_URL (a dedicated database: the stack migrates it and loads reference and demo data; this
 * benchmark adds its banks PSPB…/PSPC…, merchants with NMIDs ID77…, payment events and transactions, and keeps
 * the banks and merchants for the next run; bench/floor-server.ts adds and drops the schema bench_floor). Progress goes to stderr; the tables and a one-line JSON summary (last
 * line) go to stdout.
 */

const SETTINGS = {
  /**
   * Connections of every throughput ceiling, floors included. The uncached and event loads come from 60 banks, so
   * 64 is about one connection per bank; 1,000 events/s at tens of milliseconds each needs tens in flight anyway.
   */
  connections: envInt('BENCH_CONNECTIONS', 64),
  warmupSecs: envInt('BENCH_WARMUP_SECS', 2),
  durationSecs: envInt('BENCH_DURATION_SECS', 8),
  rounds: envInt('BENCH_ROUNDS', 3),
  rateSecs: envInt('BENCH_RATE_SECS', 25),
  /**
   * Rounds of the lone lookups at the rate, each the floor's and the uncached path's runs back to back (the order
   * alternating), so that the ratio is per round and then the median, as for the ceilings: one pair of 25 s windows
   * on a shared machine gave floor p95s from 2.8 to 8.4 ms.
   */
  rateRounds: envInt('BENCH_RATE_ROUNDS', 3),
  hotBanks: envInt('BENCH_PSP_HOT_BANKS', 1000),
  coldBanks: envInt('BENCH_PSP_COLD_BANKS', 120),
  coldMerchantsPerBank: envInt('BENCH_PSP_COLD_MERCHANTS', 1200),
};
/** The round number of the discarded runs before the rounds (0 is the at-rate runs). */
const PRIME_ROUND = -1;
/** The hot banks are used in this many groups, one per round in turn, so that a key's 60 s window sees at most ~2 cached runs. */
const HOT_GROUPS = 2;
/** The documented by-NMID limit per key (psp-api.md §8); the at-rate runs send exactly this. */
const RATE_PER_MIN = 1000;
/** The REST process keeps by-NMID answers this long (psp-api.md §8, docs/decisions/0010-caches-and-copies.md). */
const CACHE_TTL_SECS = 30;
/** An uncached pair is not asked for again within this many seconds (the TTL plus a margin). */
const COLD_REUSE_SECS = 33;

const restPort = envInt('BENCH_REST_PORT', 18180);
const PORTS = { rest: restPort, floor: restPort + 2, gateway: envInt('BENCH_GATEWAY_PORT', 14100) };
const SUBGRAPH_PORTS = {
  merchant: PORTS.gateway + 1,
  outlet: PORTS.gateway + 2,
  transaction: PORTS.gateway + 3,
  catalog: PORTS.gateway + 4,
};
const REST = `http://${HOST}:${PORTS.rest}`;
const FLOOR = `http://${HOST}:${PORTS.floor}`;

// ---------------------------------------------------------------------------------------------------------
// Banks, merchants and NMIDs of the benchmark, created through the product's services (as `npm run ops --
// bank:create` / `merchant:create` do, without opening two ORMs per merchant) and kept for the next run.

interface Key {
  keyId: string;
  secret: string;
}
interface Bank {
  code: string;
  id: string;
  tier: number;
  lookup: Key;
  event: Key;
}
interface Pair {
  bank: Bank;
  nmid: string;
}

/**
 * Hot banks PSPB0001… (index 1…4999): one merchant each, the first NMID of which is the bank's hot pair (the
 * cached ceiling needs many keys: ~25,000 req/s is 1.5 M/min against 1,000/min per key). Cold banks PSPC001…
 * (index 5001…): many merchants each, whose NMIDs are the uncached pool, and whose event keys carry the events
 * (few keys: each key's credential is looked up again once a minute, which many keys would inflate). The two
 * single-key at-rate banks.
 */
const hotBankCode = (i: number) => `PSPB${String(i).padStart(4, '0')}`;
const coldBankCode = (i: number) => `PSPC${String(i).padStart(3, '0')}`;
const COLD_INDEX_BASE = 5000;
const RATE_CACHED_BANK = { code: 'PSPBRC', index: 9001 };
const RATE_UNCACHED_BANK = { code: 'PSPBRU', index: 9002 };
/** NMID k (0 or 1) of merchant j of bank i: ID77 + bank (4 digits) + merchant (4 digits) + k. */
const nmidOf = (bank: number, merchant: number, k: number) =>
  `ID77${String(bank).padStart(4, '0')}${String(merchant).padStart(4, '0')}${k}`;
const RATE_CACHED_MERCHANTS = 25;
/** More merchants created than this, and the bank views are rebuilt in bulk rather than one job per merchant. */
const BULK_COPY_AFTER = 10_000;
/** Length of the no-load CPU sample taken before the at-rate runs. */
const IDLE_SECS = 5;

interface Seeded {
  hotBanks: Bank[];
  coldBanks: Bank[];
  rateCached: Bank;
  rateUncached: Bank;
  /** One NMID per hot bank: the first NMID of its merchant. */
  hot: Pair[];
  /** Both NMIDs of every merchant of every cold bank, banks interleaved (consecutive requests rotate keys). */
  cold: Pair[];
  /** The first NMID of the first merchant of each cold bank: what the events name. */
  eventPairs: Pair[];
  rateCachedPairs: Pair[];
  rateUncachedPairs: Pair[];
  created: { banks: number; merchants: number; secs: number };
}

async function seed(databaseUrl: string, rateUncachedMerchants: number): Promise<Seeded> {
  const started = Date.now();
  const config = loadConfig();
  const merchantOrm = await openSubgraphOrm(
    SUBGRAPHS.find((s) => s.name === 'merchant')!,
    config,
    databaseUrl,
  );
  const outletOrm = await openSubgraphOrm(
    SUBGRAPHS.find((s) => s.name === 'outlet')!,
    config,
    databaseUrl,
  );
  try {
    const knex = merchantOrm.em.getKnex();
    const hotPlans = Array.from({ length: SETTINGS.hotBanks }, (_, i) => ({ code: hotBankCode(i + 1), index: i + 1, merchants: 1 }));
    const coldPlans = Array.from({ length: SETTINGS.coldBanks }, (_, i) => ({
      code: coldBankCode(i + 1),
      index: COLD_INDEX_BASE + i + 1,
      merchants: SETTINGS.coldMerchantsPerBank,
    }));
    const plans = [
      ...hotPlans,
      ...coldPlans,
      { ...RATE_CACHED_BANK, merchants: RATE_CACHED_MERCHANTS },
      { ...RATE_UNCACHED_BANK, merchants: rateUncachedMerchants },
    ];
    const existing = await knex('merchant.banks as b')
      .join('merchant.bank_credentials as c', 'c.bank_id', 'b.id')
      .where('b.code', 'like', 'PSP%')
      .andWhere('c.status', 'active')
      .select<{ id: string; code: string; key_id: string; purpose: 'lookup' | 'event' }[]>('b.id', 'b.code', 'c.key_id', 'c.purpose');
    const box = secretBoxFor(config);
    const banks = new Map<string, Bank>();
    let createdBanks = 0;
    for (const plan of plans) {
      const rows = existing.filter((r) => r.code === plan.code);
      const lookupRow = rows.find((r) => r.purpose === 'lookup');
      const eventRow = rows.find((r) => r.purpose === 'event');
      if (lookupRow && eventRow) {
        // Kept from an earlier run: the secrets are read back as the REST adapter's credential lookup does.
        const service = new BankService(merchantOrm.em.fork(), box);
        const [lookup, event] = [await service.credential(lookupRow.key_id), await service.credential(eventRow.key_id)];
        if (!lookup || !event) throw new Error(`bank ${plan.code}: credentials not readable`);
        banks.set(plan.code, {
          code: plan.code,
          id: lookupRow.id,
          tier: lookup.bank.tier,
          lookup: { keyId: lookup.keyId, secret: lookup.secret },
          event: { keyId: event.keyId, secret: event.secret },
        });
      } else if (rows.length === 0) {
        const issued = await new BankService(merchantOrm.em.fork(), box).create({
          code: plan.code,
          name: `Bench bank ${plan.code}`,
          tier: 'external',
        });
        banks.set(plan.code, {
          code: plan.code,
          id: issued.bank_id,
          tier: 2,
          lookup: { keyId: issued.lookup_key_id, secret: issued.lookup_secret },
          event: { keyId: issued.event_key_id, secret: issued.event_secret },
        });
        createdBanks++;
      } else {
        throw new Error(`bank ${plan.code} exists without an active lookup and event key; use a fresh database`);
      }
    }

    const have = new Set(
      (await knex('merchant.merchants').where('primary_nmid', 'like', 'ID77%').select<{ primary_nmid: string }[]>('primary_nmid')).map(
        (r) => r.primary_nmid,
      ),
    );
    const categoryName = (
      (await knex('merchant.business_types').where({ mcc: '5411' }).orderBy('id').first('name')) as { name?: string } | undefined
    )?.name;
    const todo = plans.flatMap((plan) =>
      Array.from({ length: plan.merchants }, (_, j) => ({ plan, j })).filter(({ plan: p, j }) => !have.has(nmidOf(p.index, j, 0))),
    );
    if (todo.length > 0) progress(`creating ${todo.length} merchants (2 NMIDs, 2 outlets, 2 terminals each); kept for later runs …`);
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < todo.length) {
        const { plan, j } = todo[next++];
        const name = `Toko ${plan.code}-${j}`;
        const nmids = [nmidOf(plan.index, j, 0), nmidOf(plan.index, j, 1)];
        const merchantId = uuidv7();
        // What onboardMerchant (scripts/database-tasks.ts) does: outlets first, then the merchant, activated.
        await new OutletService(outletOrm.em.fork()).createForMerchant(
          merchantId,
          nmids.map((nmid, i) => ({
            code: i === 0 ? 'PUSAT' : `CABANG-${i}`,
            name: i === 0 ? name : `${name} – Cabang ${i}`,
            nmid,
            bankCode: plan.code,
            isDefault: i === 0,
            withTerminal: true,
          })),
        );
        await new MerchantService(merchantOrm.em.fork()).createOnboarded({
          id: merchantId,
          name,
          bankCode: plan.code,
          categoryCode: '5411',
          categoryName,
          primaryNmid: nmids[0],
        });
        if (++done % 500 === 0) progress(`  ${done} / ${todo.length}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    const hot = hotPlans.map((p) => ({ bank: banks.get(p.code)!, nmid: nmidOf(p.index, 0, 0) }));
    const cold: Pair[] = [];
    for (let j = 0; j < SETTINGS.coldMerchantsPerBank; j++) {
      for (let k = 0; k < 2; k++) for (const p of coldPlans) cold.push({ bank: banks.get(p.code)!, nmid: nmidOf(p.index, j, k) });
    }
    const pairsOf = (bank: Bank, index: number, merchants: number) =>
      Array.from({ length: merchants }, (_, j) => [0, 1].map((k) => ({ bank, nmid: nmidOf(index, j, k) }))).flat();
    const rateCached = banks.get(RATE_CACHED_BANK.code)!;
    const rateUncached = banks.get(RATE_UNCACHED_BANK.code)!;
    return {
      hotBanks: hot.map((p) => p.bank),
      coldBanks: coldPlans.map((p) => banks.get(p.code)!),
      rateCached,
      rateUncached,
      hot,
      cold,
      eventPairs: coldPlans.map((p) => ({ bank: banks.get(p.code)!, nmid: nmidOf(p.index, 0, 0) })),
      rateCachedPairs: pairsOf(rateCached, RATE_CACHED_BANK.index, RATE_CACHED_MERCHANTS),
      rateUncachedPairs: pairsOf(rateUncached, RATE_UNCACHED_BANK.index, rateUncachedMerchants),
      created: { banks: createdBanks, merchants: todo.length, secs: (Date.now() - started) / 1000 },
    };
  } finally {
    await merchantOrm.close();
    await outletOrm.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Signed requests (psp-api.md §5, docs/decisions/0024-bank-keys-and-signatures.md).

const hmac = (secret: string, message: string) => createHmac('sha256', secret).update(message).digest('hex');

function lookupRequest(pair: Pair): { method: 'GET'; path: string; headers: Record<string, string> } {
  const target = `/api/psp/v1/merchants/by-nmid/${pair.nmid}`;
  const timestamp = new Date().toISOString();
  return {
    method: 'GET',
    path: target,
    headers: {
      'x-api-key-id': pair.bank.lookup.keyId,
      'x-timestamp': timestamp,
      'x-signature': hmac(pair.bank.lookup.secret, `GET\n${target}\n${timestamp}\n`),
    },
  };
}

/** RFC 3339 with the +07:00 offset, as a Jakarta bank would send it. */
const jakartaNow = () => new Date(Date.now() + 7 * 3600_000).toISOString().replace('Z', '+07:00');

function eventRequest(pair: Pair, externalId: string): { method: 'POST'; path: string; headers: Record<string, string>; body: string } {
  const timestamp = jakartaNow();
  const body = JSON.stringify({
    external_event_id: externalId,
    event_type: 'transaction.success',
    nmid: pair.nmid,
    gross_amount: 100_000,
    transaction_code: `TRX-${externalId}`,
    reference_number: `REF-${externalId}`,
    rrn: `R${externalId}`.slice(-32),
    transaction_at: timestamp,
    payer_bank_code: '014',
    payer_bank_name: 'BCA',
    payer_name_masked: 'B*** S***',
    mdr_fee_bank: 300,
    switching_fee: 100,
    platform_fee: 50,
    status: 'success',
  });
  return {
    method: 'POST',
    path: '/psp/v1/events',
    headers: {
      'content-type': 'application/json',
      'x-psp-key-id': pair.bank.event.keyId,
      'x-psp-timestamp': timestamp,
      'x-psp-signature': hmac(pair.bank.event.secret, `POST\n/psp/v1/events\n${timestamp}\n${body}`),
      'x-request-id': randomUUID(),
    },
    body,
  };
}

async function send(
  origin: string,
  req: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  const { statusCode, body } = await request(`${origin}${req.path}`, { method: req.method, headers: req.headers, body: req.body });
  return { status: statusCode, text: await body.text() };
}

/** Every pair asked once (concurrency 10): fills the REST cache for them; all must answer 200. */
async function warmPass(pairs: Pair[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  const bad: string[] = [];
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < pairs.length) {
        const pair = pairs[next++];
        const { status, text } = await send(REST, lookupRequest(pair));
        if (status !== 200) bad.push(`${pair.nmid}: ${status} ${text.slice(0, 200)}`);
      }
    }),
  );
  if (bad.length > 0) throw new Error(`warm pass: ${bad.length} of ${pairs.length} lookups failed, e.g. ${bad[0]}`);
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------------------
// Checks.

/**
 * GraphQL requests each subgraph has answered: at its HTTP endpoint, or, with REST_SUBGRAPHS=in-process, the fetches
 * REST ran on its embedded copy of it (docs/decisions/0009-how-operations-execute.md).
 */
async function subgraphCounts(): Promise<Record<keyof typeof SUBGRAPH_PORTS, number>> {
  const entries = await Promise.all(
    Object.keys(SUBGRAPH_PORTS).map(async (name) => {
      const count = EMBEDDED
        ? (await histogramTotals(PORTS.gateway, 'rest', 'subgraph_fetch_duration_seconds', (l) => l.includes(`subgraph="${name}"`))).count
        : await graphqlRequests(PORTS.gateway, name as keyof typeof SUBGRAPH_PORTS);
      return [name, count] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<keyof typeof SUBGRAPH_PORTS, number>;
}

/**
 * Where a by-NMID lookup's time goes, from the stack's own histograms: the REST route's server time, each subgraph
 * fetch of its query plan as REST's executor timed it, and
 * inside that subgraph its HTTP server time and its GraphQL operation. Means per observation, in ms.
 */

/** REST runs the subgraphs itself (REST_SUBGRAPHS=in-process): their processes stay idle. */
const EMBEDDED = process.env.REST_SUBGRAPHS !== 'http';
const LATENCY_PARTS: Record<string, [ProcessName, string, (labels: string) => boolean]> = {
  rest: ['rest', 'http_request_duration_seconds', (l) => l.includes('by-nmid')],
  outletFetch: ['rest', 'subgraph_fetch_duration_seconds', (l) => l.includes('subgraph="outlet"')],
  outletServer: ['outlet', 'http_request_duration_seconds', (l) => l.includes('route="/graphql"')],
  outletOperation: ['outlet', 'graphql_operation_duration_seconds', () => true],
  merchantFetch: ['rest', 'subgraph_fetch_duration_seconds', (l) => l.includes('subgraph="merchant"')],
  merchantServer: ['merchant', 'http_request_duration_seconds', (l) => l.includes('route="/graphql"')],
  merchantOperation: ['merchant', 'graphql_operation_duration_seconds', () => true],
};
type LatencyTotals = Record<string, { sum: number; count: number }>;

async function latencyTotals(): Promise<LatencyTotals> {
  const entries = await Promise.all(
    Object.entries(LATENCY_PARTS).map(
      async ([part, [name, metric, keep]]) => [part, await histogramTotals(PORTS.gateway, name, metric, keep)] as const,
    ),
  );
  return Object.fromEntries(entries);
}

/**
 * Mean ms per lone lookup of each part (the REST route's count is the number of lookups): a fetch that only some lookups
 * make (the merchant's, when the outlet subgraph's copy lacks an item) counts for its share; `merchantFetches` is how
 * many there were.
 */
const latencyMeans = (before: LatencyTotals, after: LatencyTotals): Record<string, number> => {
  const lookups = after.rest.count - before.rest.count;
  const perLookup = (part: string) => (lookups > 0 ? round2(((after[part].sum - before[part].sum) * 1000) / lookups) : NaN);
  return {
    ...Object.fromEntries(Object.keys(LATENCY_PARTS).map((part) => [part, perLookup(part)])),
    merchantFetches: after.merchantFetch.count - before.merchantFetch.count,
  };
};

/** Stable JSON (sorted keys), to compare bodies independent of key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The full path and the floor answer the same bodies, refuse the same bad requests; lookups reach the outlet subgraph. */
async function checkAgreement(seeded: Seeded, otherBankPair: Pair): Promise<void> {
  const sample = seeded.hot.slice(0, 20);
  const before = await subgraphCounts();
  for (const pair of sample) {
    const req = lookupRequest(pair);
    const [full, floor] = [await send(REST, req), await send(FLOOR, req)];
    if (full.status !== 200 || floor.status !== 200)
      throw new Error(
        `by-NMID ${pair.nmid}: full path ${full.status}, floor ${floor.status}: ${full.text.slice(0, 300)} / ${floor.text.slice(0, 300)}`,
      );
    if (canonical(JSON.parse(full.text)) !== canonical(JSON.parse(floor.text)))
      throw new Error(`by-NMID ${pair.nmid}: the bodies differ:\n${full.text}\n${floor.text}`);
  }
  const outletCalls = (await subgraphCounts()).outlet - before.outlet;
  if (outletCalls < sample.length)
    throw new Error(
      `the outlet subgraph on port ${SUBGRAPH_PORTS.outlet} saw ${outletCalls} GraphQL requests for ${sample.length} uncached lookups: is the gateway routing elsewhere?`,
    );
  // Another bank's NMID: 404 on both; a wrong signature: 401 on both.
  const foreign = lookupRequest({ bank: seeded.hot[0].bank, nmid: otherBankPair.nmid });
  const forged = lookupRequest(seeded.hot[0]);
  forged.headers['x-signature'] = '0'.repeat(64);
  for (const [what, req, status] of [
    ['another bank’s NMID', foreign, 404],
    ['a wrong signature', forged, 401],
  ] as const) {
    const answers = [await send(REST, req), await send(FLOOR, req)];
    if (answers.some((a) => a.status !== status))
      throw new Error(`${what}: full path ${answers[0].status}, floor ${answers[1].status} (expected ${status})`);
  }
  for (const origin of [REST, FLOOR]) {
    const { status, text } = await send(origin, eventRequest(seeded.eventPairs[0], `${RUN}.chk.${origin === REST ? 'rest' : 'floor'}`));
    if (status !== 200 || (JSON.parse(text) as { status: string }).status !== 'success')
      throw new Error(`event check on ${origin}: ${status} ${text.slice(0, 300)}`);
  }
}

/** What happened to every event id sent in one load run. */
interface Integrity {
  sent: number;
  ok: number;
  otherAnswers: Record<string, number>;
  stored: number;
  storedRows: number;
  lost: number;
  phantom: number;
  duplicates: number;
  unanswered: number;
  unansweredStored: number;
  transactions: number | null;
}

async function checkEvents(
  pg: PgClient,
  target: 'events' | 'eventsFloor',
  phase: string,
  sent: Set<string>,
  okIds: Set<string>,
  answered: Set<string>,
  otherAnswers: Record<string, number>,
): Promise<Integrity> {
  const table = target === 'events' ? '"transaction".payment_events' : 'bench_floor.events';
  const pattern = `${RUN}.${phase}.%`;
  // Requests in flight when the load stopped may still be stored: wait until the count settles.
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const n = Number(
      (await pg.query<{ n: string }>(`select count(*) as n from ${table} where external_event_id like $1`, [pattern])).rows[0].n,
    );
    if (n === last) break;
    last = n;
    await sleep(250);
  }
  const { rows } = await pg.query<{ id: string; n: number }>(
    `select external_event_id as id, count(*)::int as n from ${table} where external_event_id like $1 group by 1`,
    [pattern],
  );
  const stored = new Set(rows.map((r) => r.id));
  const transactions =
    target === 'events'
      ? Number(
          (
            await pg.query<{ n: string }>(`select count(*) as n from "transaction".transactions where transaction_code like $1`, [
              `TRX-${pattern}`,
            ])
          ).rows[0].n,
        )
      : null;
  let lost = 0;
  for (const id of okIds) if (!stored.has(id)) lost++;
  let phantom = 0;
  let unansweredStored = 0;
  for (const id of stored) {
    if (!sent.has(id)) phantom++;
    if (!answered.has(id)) unansweredStored++;
  }
  return {
    sent: sent.size,
    ok: okIds.size,
    otherAnswers,
    stored: stored.size,
    storedRows: rows.reduce((n, r) => n + r.n, 0),
    lost,
    phantom,
    duplicates: rows.reduce((n, r) => n + r.n, 0) - stored.size,
    unanswered: sent.size - answered.size,
    unansweredStored,
    transactions,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Measurement.

type TargetKey = 'lookupFloor' | 'lookupUncached' | 'lookupCached' | 'eventsFloor' | 'events';
interface Target {
  key: TargetKey;
  label: string;
  origin: string;
  floor: TargetKey;
}
const TARGETS: Target[] = [
  { key: 'lookupFloor', label: 'by-NMID floor', origin: FLOOR, floor: 'lookupFloor' },
  { key: 'lookupUncached', label: 'by-NMID uncached', origin: REST, floor: 'lookupFloor' },
  { key: 'lookupCached', label: 'by-NMID cached', origin: REST, floor: 'lookupFloor' },
  { key: 'eventsFloor', label: 'events floor', origin: FLOOR, floor: 'eventsFloor' },
  { key: 'events', label: 'events', origin: REST, floor: 'eventsFloor' },
];
type RateKey = 'rateFloor' | 'rateCached' | 'rateUncached';
const RATE_TARGETS: { key: RateKey; label: string; origin: string }[] = [
  { key: 'rateFloor', label: 'by-NMID floor @1,000/min', origin: FLOOR },
  { key: 'rateCached', label: 'by-NMID cached @1,000/min', origin: REST },
  { key: 'rateUncached', label: 'by-NMID uncached @1,000/min', origin: REST },
];

/** Unique per invocation: the prefix of every external_event_id sent. */
const RUN = `pb${Date.now().toString(36)}`;

interface Run {
  target: TargetKey | RateKey;
  round: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  durationSecs: number;
  subgraphCalls: Record<keyof typeof SUBGRAPH_PORTS, number>;
  cpuSecs: Record<CpuLabel, number>;
  cpuSecsPer1k: Record<CpuLabel, number>;
  /** WAL bytes the server wrote per 2xx response (the floor's runs write only the floor's rows). */
  walBytesPerRequest: number;
  /** Share of the machine's CPU busy during the run (CpuSampler.machineBusy): below ~0.9 the run waited, not computed. */
  machineBusy: number;
  /** The lone lookups only: mean ms per part (LATENCY_PARTS). */
  latencyMs?: Record<string, number>;
  rateCap?: number;
  coldReusedWithinTtl?: number;
  warmPassSecs?: number;
  integrity?: Integrity;
}

/** The load running now, stopped on SIGINT/SIGTERM. */
let current: autocannon.Instance | undefined;
let interrupted = false;

/** autocannon 8 options this file uses beyond bench/autocannon.d.ts (see its README, "Usage / API"). */
interface DynamicRequest {
  method: string;
  path?: string;
  setupRequest: (req: autocannon.Request, context: Record<string, unknown>) => autocannon.Request;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

interface Load {
  result: autocannon.Result;
  statusCounts: Record<string, number>;
}

async function load(
  origin: string,
  durationSecs: number,
  dynamic: DynamicRequest,
  overallRate?: number,
  latencies?: number[],
): Promise<Load> {
  const options = {
    url: origin,
    connections: SETTINGS.connections,
    duration: durationSecs,
    requests: [dynamic],
    ...(overallRate ? { overallRate } : {}),
  };
  const instance = autocannon(options);
  const statusCounts: Record<string, number> = {};
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    if (latencies && statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  current = instance;
  try {
    return { result: await instance, statusCounts };
  } finally {
    current = undefined;
  }
}

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(2) : '–').padStart(7);
const round2 = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

class Bench {
  private coldCursor = 0;
  private readonly coldLastUsed: Float64Array;
  private hotCursor = 0;
  private readonly hotGroups: Pair[][];

  constructor(
    private readonly seeded: Seeded,
    private readonly pg: PgClient,
    private readonly cpu: CpuSampler,
  ) {
    this.coldLastUsed = new Float64Array(seeded.cold.length).fill(-Infinity);
    this.hotGroups = Array.from({ length: HOT_GROUPS }, (_, g) => seeded.hot.filter((_pair, i) => i % HOT_GROUPS === g));
  }

  /** The hot pairs of a round: its group in turn. */
  hotGroup(round: number): Pair[] {
    // Priming uses the group of round 2, which comes more than a minute later: no key's window sees both.
    return this.hotGroups[round === PRIME_ROUND ? 1 : (round - 1) % HOT_GROUPS];
  }

  /** Lookups over hot pairs, rotating (every request signed when built). */
  private hotLookups(pairs: Pair[]): DynamicRequest {
    return { method: 'GET', setupRequest: (req) => ({ ...req, ...lookupRequest(pairs[this.hotCursor++ % pairs.length]) }) };
  }

  /** Lookups over the cold pairs, one cursor for the whole invocation, so a pair comes back only after the whole pool. */
  private coldLookups(): { dynamic: DynamicRequest; reused: () => number } {
    const pairs = this.seeded.cold;
    let reused = 0;
    return {
      dynamic: {
        method: 'GET',
        setupRequest: (req) => {
          const i = this.coldCursor++ % pairs.length;
          const now = performance.now();
          if (now - this.coldLastUsed[i] < CACHE_TTL_SECS * 1000) reused++;
          this.coldLastUsed[i] = now;
          return { ...req, ...lookupRequest(pairs[i]) };
        },
      },
      reused: () => reused,
    };
  }

  private events(
    phase: string,
    sent: Set<string>,
    okIds: Set<string>,
    answered: Set<string>,
    otherAnswers: Record<string, number>,
  ): DynamicRequest {
    const pairs = this.seeded.eventPairs;
    let n = 0;
    return {
      method: 'POST',
      setupRequest: (req, context) => {
        const i = n++;
        const id = `${RUN}.${phase}.${i}`;
        sent.add(id);
        // One request in flight per connection (no pipelining): the context names the one being answered.
        context.id = id;
        return { ...req, ...eventRequest(pairs[i % pairs.length], id) };
      },
      onResponse: (status, body, context) => {
        const id = context.id as string;
        answered.add(id);
        let outcome = String(status);
        if (status === 200) {
          try {
            outcome = `200 ${(JSON.parse(body) as { status: string }).status}`;
          } catch {
            outcome = '200 unparsable';
          }
        }
        if (outcome === '200 success') okIds.add(id);
        else otherAnswers[outcome] = (otherAnswers[outcome] ?? 0) + 1;
      },
    };
  }

  async measure(target: Target, round: number): Promise<Run> {
    const extra: Partial<Run> = {};
    let dynamic: (phase: 'w' | 'm') => DynamicRequest;
    let rateCap: number | undefined;
    let reusedCounter: (() => number) | undefined;
    const eventState = { sent: new Set<string>(), ok: new Set<string>(), answered: new Set<string>(), other: {} as Record<string, number> };
    const eventPhase = (phase: 'w' | 'm') => `${target.key === 'events' ? 'E' : 'F'}${round}${phase}`;
    switch (target.key) {
      case 'lookupFloor':
        dynamic = () => this.hotLookups(this.seeded.hot);
        break;
      case 'lookupCached': {
        const pairs = this.hotGroup(round);
        extra.warmPassSecs = round2(await warmPass(pairs));
        dynamic = () => this.hotLookups(pairs);
        break;
      }
      case 'lookupUncached': {
        // At most pool / 33 s per second: no pair can come back while its answer may still be cached.
        rateCap = Math.floor(this.seeded.cold.length / COLD_REUSE_SECS);
        extra.rateCap = rateCap;
        dynamic = (phase) => {
          const cold = this.coldLookups();
          if (phase === 'm') reusedCounter = cold.reused;
          return cold.dynamic;
        };
        break;
      }
      case 'events':
      case 'eventsFloor':
        dynamic = (phase) => {
          if (phase === 'w') return this.events(eventPhase('w'), new Set(), new Set(), new Set(), {});
          return this.events(eventPhase('m'), eventState.sent, eventState.ok, eventState.answered, eventState.other);
        };
        break;
    }
    if (SETTINGS.warmupSecs > 0) await load(target.origin, SETTINGS.warmupSecs, dynamic('w'), rateCap);
    const callsBefore = await subgraphCounts();
    const cpuBefore = await this.cpu.snapshot();
    const latencies: number[] = [];
    const { result, statusCounts } = await load(target.origin, SETTINGS.durationSecs, dynamic('m'), rateCap, latencies);
    const cpuAfter = await this.cpu.snapshot();
    const callsAfter = await subgraphCounts();
    if (reusedCounter) extra.coldReusedWithinTtl = reusedCounter();
    if (target.key === 'events' || target.key === 'eventsFloor') {
      extra.integrity = await checkEvents(
        this.pg,
        target.key,
        eventPhase('m'),
        eventState.sent,
        eventState.ok,
        eventState.answered,
        eventState.other,
      );
    }
    return this.record(
      target.key,
      target.label,
      round,
      result,
      statusCounts,
      latencies,
      callsBefore,
      callsAfter,
      cpuBefore,
      cpuAfter,
      extra,
    );
  }

  private record(
    key: TargetKey | RateKey,
    label: string,
    round: number,
    result: { duration: number; '2xx': number; non2xx: number; errors: number; timeouts: number },
    statusCounts: Record<string, number>,
    latencies: number[],
    callsBefore: Record<keyof typeof SUBGRAPH_PORTS, number>,
    callsAfter: Record<keyof typeof SUBGRAPH_PORTS, number>,
    cpuBefore: Awaited<ReturnType<CpuSampler['snapshot']>>,
    cpuAfter: Awaited<ReturnType<CpuSampler['snapshot']>>,
    extra: Partial<Run>,
  ): Run {
    const sorted = Float64Array.from(latencies).sort();
    const cpuSecs = CpuSampler.delta(cpuBefore, cpuAfter);
    const ok = result['2xx'];
    const run: Run = {
      target: key,
      round,
      rps: ok / result.duration,
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
      p99Ms: percentile(sorted, 99),
      ok,
      non2xx: result.non2xx,
      statusCounts,
      errors: result.errors,
      timeouts: result.timeouts,
      durationSecs: result.duration,
      subgraphCalls: Object.fromEntries(
        Object.keys(callsAfter).map((k) => [k, callsAfter[k as keyof typeof callsAfter] - callsBefore[k as keyof typeof callsBefore]]),
      ) as Run['subgraphCalls'],
      cpuSecs,
      cpuSecsPer1k: Object.fromEntries(CPU_LABELS.map((l) => [l, ok > 0 ? (cpuSecs[l] * 1000) / ok : NaN])) as Record<CpuLabel, number>,
      walBytesPerRequest: ok > 0 ? CpuSampler.walBytes(cpuBefore, cpuAfter) / ok : NaN,
      machineBusy: CpuSampler.machineBusy(cpuBefore, cpuAfter),
      ...extra,
    };
    const problems =
      run.non2xx + run.errors > 0
        ? `  !! ${run.non2xx} non-2xx (${JSON.stringify(statusCounts)}), ${run.errors} errors (${run.timeouts} timeouts)`
        : '';
    const calls = `subgraph calls m/o/t ${run.subgraphCalls.merchant}/${run.subgraphCalls.outlet}/${run.subgraphCalls.transaction}`;
    const integrity = run.integrity
      ? `  events sent ${run.integrity.sent}, 200 success ${run.integrity.ok}, stored ${run.integrity.stored}, lost ${run.integrity.lost}, duplicates ${run.integrity.duplicates}, in flight at stop ${run.integrity.unanswered} (${run.integrity.unansweredStored} stored)`
      : '';
    progress(
      `  ${key.startsWith('rate') ? `at rate, round ${round}` : round > 0 ? `round ${round}` : 'priming'} ${label.padEnd(28)} ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${fmt(run.p50Ms)}  p95 ${fmt(run.p95Ms)}  p99 ${fmt(run.p99Ms)} ms  ${calls}${problems}${integrity}`,
    );
    return run;
  }

  /** CPU seconds per second of every process with no load: what the per-request figures of slow runs include. */
  async idle(secs: number): Promise<Record<CpuLabel, number>> {
    const before = await this.cpu.snapshot();
    await sleep(secs * 1000);
    const after = await this.cpu.snapshot();
    const delta = CpuSampler.delta(before, after);
    return Object.fromEntries(CPU_LABELS.map((label) => [label, round4(delta[label] / secs)])) as Record<CpuLabel, number>;
  }

  /**
   * Open loop: one request every 60 ms (exactly RATE_PER_MIN/min), whatever the answers; latency from send
   * to the last byte of the body. One key, as one bank at its documented limit.
   */
  async atRate(key: RateKey, label: string, origin: string, pairs: Pair[], round: number): Promise<Run> {
    const extra: Partial<Run> = {};
    if (key === 'rateCached') extra.warmPassSecs = round2(await warmPass(pairs));
    const count = Math.round((SETTINGS.rateSecs * RATE_PER_MIN) / 60);
    const intervalMs = 60_000 / RATE_PER_MIN;
    const pool = new UndiciPool(origin, { connections: 32 });
    const latencies: number[] = [];
    const statusCounts: Record<string, number> = {};
    let errors = 0;
    let ok = 0;
    const callsBefore = await subgraphCounts();
    const latencyBefore = key === 'rateUncached' ? await latencyTotals() : undefined;
    const cpuBefore = await this.cpu.snapshot();
    const started = performance.now() + 20;
    const pending: Promise<void>[] = [];
    for (let i = 0; i < count && !interrupted; i++) {
      const wait = started + i * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      const req = lookupRequest(pairs[i % pairs.length]);
      const t0 = performance.now();
      pending.push(
        pool.request({ method: req.method, path: req.path, headers: req.headers }).then(
          async ({ statusCode, body }) => {
            await body.arrayBuffer();
            statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
            if (statusCode >= 200 && statusCode < 300) {
              ok++;
              latencies.push(performance.now() - t0);
            }
          },
          () => {
            errors++;
          },
        ),
      );
    }
    await Promise.all(pending);
    const durationSecs = (performance.now() - started) / 1000;
    const cpuAfter = await this.cpu.snapshot();
    if (latencyBefore) extra.latencyMs = latencyMeans(latencyBefore, await latencyTotals());
    const callsAfter = await subgraphCounts();
    await pool.close();
    const result = { duration: durationSecs, '2xx': ok, non2xx: count - ok - errors, errors, timeouts: 0 };
    return this.record(key, label, round, result, statusCounts, latencies, callsBefore, callsAfter, cpuBefore, cpuAfter, extra);
  }
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    progress(
      'DATABASE_URL is required: the benchmark migrates and seeds it, and the floor queries it directly. Use a dedicated database, e.g.\n' +
        "  psql -h 127.0.0.1 -U root -d postgres -c 'create database qris_bench_psp'\n" +
        '  DATABASE_URL=postgres://root@127.0.0.1:5432/qris_bench_psp npm run bench:psp',
    );
    process.exit(2);
  }
  const started = Date.now();
  const loadBefore = os.loadavg();
  const rateCount = Math.round((SETTINGS.rateSecs * RATE_PER_MIN) / 60);
  if (SETTINGS.hotBanks < HOT_GROUPS || SETTINGS.hotBanks > 4999) throw new Error(`BENCH_PSP_HOT_BANKS must be ${HOT_GROUPS}…4999`);
  if (SETTINGS.rateRounds < 1 || SETTINGS.rateRounds > 9) throw new Error('BENCH_RATE_ROUNDS must be 1…9');
  if (SETTINGS.coldBanks < 1 || SETTINGS.coldBanks > 999) throw new Error('BENCH_PSP_COLD_BANKS must be 1…999');
  if (SETTINGS.coldMerchantsPerBank < 1 || SETTINGS.coldMerchantsPerBank > 9999) throw new Error('BENCH_PSP_COLD_MERCHANTS must be 1…9999');
  if (SETTINGS.rateSecs > CACHE_TTL_SECS - 5)
    progress(
      `note: BENCH_RATE_SECS ${SETTINGS.rateSecs} > ${CACHE_TTL_SECS - 5}: the cached at-rate run outlives its warm pass; some of it will be misses`,
    );

  const { stack, floor, extra } = await startBenchStack({
    databaseUrl,
    restPort: PORTS.rest,
    gatewayPort: PORTS.gateway,
    floorEnv: { FLOOR_PSP: '1' },
  });

  const pg = new PgClient({ connectionString: databaseUrl, application_name: 'bench-psp' });
  await pg.connect();
  try {
    const seeded = await seed(databaseUrl, Math.ceil((rateCount * SETTINGS.rateRounds) / 2) + 10);
    // A first run's seed is copied in bulk: one job per merchant would take longer than the whole benchmark.
    await syncBankViewCopy(databaseUrl, { all: seeded.created.merchants > BULK_COPY_AFTER });
    // Fresh tables have no planner statistics until autovacuum gets to them; without them PostgreSQL picked a
    // hash join over all outlets for the primary-terminal lookup (product and floor alike).
    await pg.query(
      'analyze merchant.banks, merchant.bank_credentials, merchant.merchants, outlet.outlets, outlet.terminals, outlet.merchant_profiles',
    );
    if (seeded.created.merchants > 0 || seeded.created.banks > 0) {
      progress(`created ${seeded.created.banks} banks and ${seeded.created.merchants} merchants in ${seeded.created.secs.toFixed(1)} s`);
    }
    const allBanks = [...seeded.hotBanks, ...seeded.coldBanks, seeded.rateCached, seeded.rateUncached];
    const { statusCode } = await request(`${FLOOR}/floor/keys`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        keys: allBanks.flatMap((b) => [
          { ...b.lookup, purpose: 'lookup', bankId: b.id, bankCode: b.code, tier: b.tier },
          { ...b.event, purpose: 'event', bankId: b.id, bankCode: b.code, tier: b.tier },
        ]),
      }),
    });
    if (statusCode !== 200) throw new Error(`floor refused the keys (${statusCode})`);
    await checkAgreement(seeded, seeded.rateUncachedPairs[seeded.rateUncachedPairs.length - 1]);

    const cpu = new CpuSampler(
      stack.child.pid!,
      floor!.child.pid,
      pg,
      extra.map((m) => m.child.pid!),
    );
    const bench = new Bench(seeded, pg, cpu);
    progress(
      `targets agree; ${seeded.hot.length} hot banks and pairs (${HOT_GROUPS} groups), ${seeded.coldBanks.length} cold banks with ${seeded.cold.length} cold pairs; ` +
        `at rate: ${RATE_PER_MIN}/min × ${SETTINGS.rateSecs} s per target; ceilings: ${SETTINGS.rounds} rounds × ${TARGETS.length} targets × (${SETTINGS.warmupSecs} s warm-up + ${SETTINGS.durationSecs} s), ${SETTINGS.connections} connections`,
    );

    const idle = await bench.idle(IDLE_SECS);
    // Every target once before the rounds, its figures discarded: otherwise the first round also measures V8
    // compiling the code paths it is the first to take (its events ran 10–20 % below the later rounds').
    for (const target of TARGETS) {
      if (interrupted) return;
      await bench.measure(target, PRIME_ROUND);
    }
    // Autovacuum analyses tables as they grow, and an analysis invalidates the plans that connections have cached,
    // among them those of the intake triggers' key lookups (PL/pgSQL plans a statement once per connection). Where it
    // is off (this machine's PostgreSQL has it off), a run that starts on empty event tables keeps those first plans,
    // sequential scans of the dedupe keys, for good: one scan of every stored key per event (260 million rows read
    // in one run). The prime round has filled the tables; analyse them once, as autovacuum would have.
    const { rows: autovacuum } = await pg.query<{ autovacuum: string }>('show autovacuum');
    if (autovacuum[0].autovacuum !== 'on') {
      progress('autovacuum is off on this server: analysing the database once after the prime round, as it would');
      await pg.query('analyze');
    }
    const runs: Run[] = [];
    for (let round = 1; round <= SETTINGS.rounds; round++) {
      // Rotate the order each round, so no target always runs first or after the same one.
      for (let i = 0; i < TARGETS.length; i++) {
        if (interrupted) return;
        runs.push(await bench.measure(TARGETS[(i + round - 1) % TARGETS.length], round));
      }
    }
    // Latency at the documented rate last, on warm processes as in production: run first, on processes just
    // started, the lookups also paid for V8 compiling the code paths they were the first to take.
    const rateRuns: Run[] = [];
    const ratePairs = (key: RateKey, round: number): Pair[] =>
      key === 'rateUncached' ? seeded.rateUncachedPairs.slice((round - 1) * rateCount, round * rateCount) : seeded.rateCachedPairs;
    // The cached path once (one bank's key, within its answers' TTL), then the floor and the uncached path in turn,
    // the order alternating each round.
    const rateTarget = (key: RateKey) => RATE_TARGETS.find((t) => t.key === key)!;
    const rateOrder = [
      { target: rateTarget('rateCached'), round: 1 },
      ...Array.from({ length: SETTINGS.rateRounds }, (_, i) => {
        const pair = [rateTarget('rateFloor'), rateTarget('rateUncached')].map((target) => ({ target, round: i + 1 }));
        return i % 2 === 0 ? pair : pair.reverse();
      }).flat(),
    ];
    for (const { target: t, round } of rateOrder) {
      if (interrupted) return;
      rateRuns.push(await bench.atRate(t.key, t.label, t.origin, ratePairs(t.key, round), round));
    }
    const loadAfter = os.loadavg();
    await stopAll();
    report({ seeded, runs, rateRuns, idle, loadBefore, loadAfter, started });
  } finally {
    await pg.end().catch(() => undefined);
  }
}

interface Summary {
  label: string;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  rpsVsFloor: number;
  p95VsFloor: number;
  non2xx: number;
  errors: number;
  statusCounts: Record<string, number>;
  subgraphCallsPerRequest: Record<string, number>;
  cpuSecsPer1k: Record<CpuLabel, number>;
  walBytesPerRequest: number;
  machineBusy: number;
}

function report({
  seeded,
  runs,
  rateRuns,
  idle,
  loadBefore,
  loadAfter,
  started,
}: {
  seeded: Seeded;
  runs: Run[];
  rateRuns: Run[];
  idle: Record<CpuLabel, number>;
  loadBefore: number[];
  loadAfter: number[];
  started: number;
}): void {
  const sumCounts = (list: Run[]) =>
    list.reduce<Record<string, number>>((acc, r) => {
      for (const [k, v] of Object.entries(r.statusCounts)) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {});
  const summarise = (list: Run[], label: string, ratios: { rps: number; p95: number }[]): Summary => ({
    label,
    rps: round2(median(list.map((r) => r.rps))),
    p50Ms: round2(median(list.map((r) => r.p50Ms))),
    p95Ms: round2(median(list.map((r) => r.p95Ms))),
    p99Ms: round2(median(list.map((r) => r.p99Ms))),
    rpsVsFloor: round4(median(ratios.map((x) => x.rps))),
    p95VsFloor: round2(median(ratios.map((x) => x.p95))),
    non2xx: list.reduce((n, r) => n + r.non2xx, 0),
    errors: list.reduce((n, r) => n + r.errors, 0),
    statusCounts: sumCounts(list),
    subgraphCallsPerRequest: Object.fromEntries(
      Object.keys(SUBGRAPH_PORTS).map((k) => [
        k,
        round2(median(list.map((r) => r.subgraphCalls[k as keyof typeof SUBGRAPH_PORTS] / Math.max(1, r.ok)))),
      ]),
    ),
    cpuSecsPer1k: Object.fromEntries(CPU_LABELS.map((l) => [l, round4(median(list.map((r) => r.cpuSecsPer1k[l])))])) as Record<
      CpuLabel,
      number
    >,
    walBytesPerRequest: Math.round(median(list.map((r) => r.walBytesPerRequest))),
    machineBusy: round2(median(list.map((r) => r.machineBusy))),
  });
  const summary = Object.fromEntries(
    TARGETS.map((target) => {
      const mine = runs.filter((r) => r.target === target.key);
      const ratios = mine.map((r) => {
        const floorRun = runs.find((f) => f.target === target.floor && f.round === r.round)!;
        return { rps: r.rps / floorRun.rps, p95: r.p95Ms / floorRun.p95Ms };
      });
      return [target.key, summarise(mine, target.label, ratios)];
    }),
  ) as Record<TargetKey, Summary>;
  const atRate = Object.fromEntries(
    RATE_TARGETS.map(({ key, label }) => {
      const mine = rateRuns.filter((r) => r.target === key);
      const ratios = mine.flatMap((r) => {
        const floorRun = rateRuns.find((f) => f.target === 'rateFloor' && f.round === r.round);
        return floorRun ? [{ rps: r.rps / floorRun.rps, p95: r.p95Ms / floorRun.p95Ms }] : [];
      });
      return [key, summarise(mine, label, ratios)];
    }),
  ) as Record<RateKey, Summary>;

  const eventRuns = runs.filter((r) => r.target === 'events' && r.integrity);
  const integrity = eventRuns.reduce(
    (acc, r) => {
      const i = r.integrity!;
      acc.sent += i.sent;
      acc.ok += i.ok;
      acc.stored += i.stored;
      acc.lost += i.lost;
      acc.phantom += i.phantom;
      acc.duplicates += i.duplicates;
      acc.unanswered += i.unanswered;
      acc.unansweredStored += i.unansweredStored;
      acc.transactions += i.transactions ?? 0;
      for (const [k, v] of Object.entries(i.otherAnswers)) acc.otherAnswers[k] = (acc.otherAnswers[k] ?? 0) + v;
      return acc;
    },
    {
      sent: 0,
      ok: 0,
      stored: 0,
      lost: 0,
      phantom: 0,
      duplicates: 0,
      unanswered: 0,
      unansweredStored: 0,
      transactions: 0,
      otherAnswers: {} as Record<string, number>,
    },
  );
  const floorIntegrity = runs
    .filter((r) => r.target === 'eventsFloor' && r.integrity)
    .reduce(
      (acc, r) => ({
        ok: acc.ok + r.integrity!.ok,
        stored: acc.stored + r.integrity!.stored,
        lost: acc.lost + r.integrity!.lost,
        duplicates: acc.duplicates + r.integrity!.duplicates,
      }),
      { ok: 0, stored: 0, lost: 0, duplicates: 0 },
    );

  const aims = {
    byNmidP95Under50MsAtRateCached: atRate.rateCached.p95Ms < 50,
    byNmidP95Under50MsAtRateUncached: atRate.rateUncached.p95Ms < 50,
    byNmidP95AtMost10MsAtRateCached: atRate.rateCached.p95Ms <= 10,
    byNmidP95AtMost10MsAtRateUncached: atRate.rateUncached.p95Ms <= 10,
    uncachedAtLeast20PctOfFloor: summary.lookupUncached.rpsVsFloor >= 0.2,
    cachedAtLeast70PctOfFloor: summary.lookupCached.rpsVsFloor >= 0.7,
    eventsAtLeast1000RpsZeroDuplicates: summary.events.rps >= 1000 && integrity.duplicates === 0 && integrity.lost === 0,
    // Issue 18 §2: each hop cheaper.
    eventsAtLeast40PctOfFloor: summary.events.rpsVsFloor >= 0.4,
    uncachedAtLeast50PctOfFloor: summary.lookupUncached.rpsVsFloor >= 0.5,
    loneUncachedP95AtMost3xFloor: atRate.rateUncached.p95VsFloor <= 3,
  };

  const cpus = os.cpus();
  const cold = runs.filter((r) => r.target === 'lookupUncached');
  const cappedRuns = cold.filter((r) => r.rateCap !== undefined && r.rps >= 0.95 * r.rateCap).length;
  const row = (s: Summary) => {
    const capped =
      s === summary.lookupUncached && cappedRuns > 0
        ? `  (${cappedRuns} of ${cold.length} runs at ≥ 95 % of the ${cold[0]?.rateCap} req/s cap: raise BENCH_PSP_COLD_MERCHANTS)`
        : '';
    const flag =
      (s.non2xx + s.errors > 0 ? `  (!! ${s.non2xx} non-2xx ${JSON.stringify(s.statusCounts)}, ${s.errors} errors)` : '') + capped;
    return `${s.label.padEnd(30)} ${s.rps.toFixed(s.rps < 100 ? 1 : 0).padStart(8)} ${fmt(s.p50Ms)} ${fmt(s.p95Ms)} ${fmt(s.p99Ms)} ${(Number.isFinite(s.rpsVsFloor) ? s.rpsVsFloor.toFixed(3) : '–').padStart(13)} ${(Number.isFinite(s.p95VsFloor) ? s.p95VsFloor.toFixed(2) : '–').padStart(11)}${flag}`;
  };
  const header = `${'target'.padEnd(30)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'req/s ÷ floor'.padStart(13)} ${'p95 ÷ floor'.padStart(11)}`;
  const cpuHeader = `${'CPU s per 1,000 requests'.padEnd(30)} ${CPU_LABELS.map((l) => l.padStart(11)).join('')} ${'total'.padStart(9)}`;
  const cpuRow = (s: Summary) => {
    const total = CPU_LABELS.filter((l) => l !== 'loadgen').reduce(
      (n, l) => n + (Number.isFinite(s.cpuSecsPer1k[l]) ? s.cpuSecsPer1k[l] : 0),
      0,
    );
    return `${s.label.padEnd(30)} ${CPU_LABELS.map((l) => (Number.isFinite(s.cpuSecsPer1k[l]) ? s.cpuSecsPer1k[l].toFixed(3) : '–').padStart(11)).join('')} ${total.toFixed(3).padStart(9)}`;
  };
  const yes = (b: boolean) => (b ? 'met' : 'NOT met');
  const cached = runs.filter((r) => r.target === 'lookupCached');
  const lines = [
    '',
    `PSP benchmark: ${seeded.hot.length} hot banks (one hot pair each, ${HOT_GROUPS} groups used in turn), ${seeded.coldBanks.length} cold banks (${seeded.cold.length} cold pairs; their event keys carry the events)`,
    `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after; ${STACK_COPIES} ${STACK_COPIES > 1 ? 'copies of every process behind nginx' : 'copy of every process'}, REST_SUBGRAPHS=${EMBEDDED ? 'in-process' : 'http'}, BANK_BATCH_IN_FLIGHT=${BANK_BATCH_IN_FLIGHT} per REST copy`,
    '',
    `Latency at the documented rate: one key, ${RATE_PER_MIN} requests/min open loop (one every ${60_000 / RATE_PER_MIN} ms), ${SETTINGS.rateSecs} s each; medians of ${SETTINGS.rateRounds} rounds of the floor and the uncached path (the cached path once)`,
    header,
    ...RATE_TARGETS.map((t) => row(atRate[t.key])),
    '',
    `Throughput ceilings: medians of ${SETTINGS.rounds} rounds, ${SETTINGS.connections} connections, ${SETTINGS.durationSecs} s per run after ${SETTINGS.warmupSecs} s warm-up, keys rotated`,
    header,
    ...TARGETS.map((t) => row(summary[t.key])),
    '',
    `Uncached runs: at most ${cold[0]?.rateCap ?? '–'} req/s (cold pool ÷ ${COLD_REUSE_SECS} s); cold pairs asked again within ${CACHE_TTL_SECS} s: ${cold.reduce((n, r) => n + (r.coldReusedWithinTtl ?? 0), 0)}; outlet subgraph calls per request ${summary.lookupUncached.subgraphCallsPerRequest.outlet}.`,
    `Cached runs: outlet subgraph calls during the measured runs ${cached.map((r) => r.subgraphCalls.outlet).join(', ')} (0 = every request a hit); warm pass ${cached.map((r) => `${r.warmPassSecs} s`).join(', ')}.`,
    `Events (all rounds, full path): sent ${integrity.sent}, answered 200 success ${integrity.ok}, other answers ${JSON.stringify(integrity.otherAnswers)}, stored ${integrity.stored}, ` +
      `lost ${integrity.lost}, stored twice ${integrity.duplicates}, stored but never sent ${integrity.phantom}, in flight when the load stopped ${integrity.unanswered} (${integrity.unansweredStored} of them stored), transactions ${integrity.transactions}.`,
    `Events (all rounds, floor): answered 200 ${floorIntegrity.ok}, stored ${floorIntegrity.stored}, lost ${floorIntegrity.lost}, stored twice ${floorIntegrity.duplicates}.`,
    '',
    cpuHeader,
    ...RATE_TARGETS.map((t) => cpuRow(atRate[t.key])),
    ...TARGETS.map((t) => cpuRow(summary[t.key])),
    `${`idle, CPU ms per second (${IDLE_SECS} s)`.padEnd(30)} ${CPU_LABELS.map((l) => (idle[l] * 1000).toFixed(1).padStart(11)).join('')}`,
    ...rateRuns
      .filter((r) => r.latencyMs)
      .map(({ latencyMs: l, p50Ms, round }) =>
        [
          `Lone uncached by-NMID, round ${round}, mean ms per lookup from the stack's histograms (client p50 ${fmt(p50Ms).trim()}): REST route ${l!.rest}`,
          EMBEDDED
            ? `= outlet fetch ${l!.outletFetch} (run in the REST process)`
            : `= outlet fetch ${l!.outletFetch} (its HTTP server ${l!.outletServer}, GraphQL operation ${l!.outletOperation})`,
          EMBEDDED
            ? `+ merchant fetch ${l!.merchantFetch} (${l!.merchantFetches} fetches)`
            : `+ merchant fetch ${l!.merchantFetch} (server ${l!.merchantServer}, operation ${l!.merchantOperation}; ${l!.merchantFetches} fetches)`,
          `+ REST's own ${round2(l!.rest - l!.outletFetch - l!.merchantFetch)}.`,
        ].join(' '),
      ),
    `WAL bytes per request (the server's, medians): ${TARGETS.filter((t) => t.key.startsWith('events'))
      .map((t) => `${summary[t.key].label} ${summary[t.key].walBytesPerRequest.toLocaleString('en')}`)
      .join(', ')}.`,
    `Machine CPU busy during the ceilings (all cores, medians; well under 1: the path waits rather than computes): ${TARGETS.map(
      (t) => `${summary[t.key].label} ${(summary[t.key].machineBusy * 100).toFixed(0)} %`,
    ).join(', ')}.`,
    '',
    'Aims:',
    `  by-NMID p95 under 50 ms at ${RATE_PER_MIN}/min (psp-api.md §8): cached ${yes(aims.byNmidP95Under50MsAtRateCached)}, uncached ${yes(aims.byNmidP95Under50MsAtRateUncached)}`,
    `  by-NMID p95 ≤ 10 ms at ${RATE_PER_MIN}/min (issue): cached ${yes(aims.byNmidP95AtMost10MsAtRateCached)}, uncached ${yes(aims.byNmidP95AtMost10MsAtRateUncached)}`,
    `  uncached by-NMID ≥ 20 % of the floor's req/s: ${yes(aims.uncachedAtLeast20PctOfFloor)} (${(summary.lookupUncached.rpsVsFloor * 100).toFixed(1)} %)`,
    `  cached by-NMID ≥ 70 % of the floor's req/s: ${yes(aims.cachedAtLeast70PctOfFloor)} (${(summary.lookupCached.rpsVsFloor * 100).toFixed(1)} %)`,
    `  events ≥ 1,000 req/s with zero duplicates (and zero losses): ${yes(aims.eventsAtLeast1000RpsZeroDuplicates)} (${summary.events.rps.toFixed(0)} req/s, ${integrity.duplicates} duplicates, ${integrity.lost} lost)`,
    'Aims of issue 18 §2 (each hop cheaper; the partner B list is in bench:partner):',
    `  events ≥ 40 % of the floor's req/s: ${yes(aims.eventsAtLeast40PctOfFloor)} (${(summary.events.rpsVsFloor * 100).toFixed(1)} %)`,
    `  uncached by-NMID ≥ 50 % of the floor's req/s: ${yes(aims.uncachedAtLeast50PctOfFloor)} (${(summary.lookupUncached.rpsVsFloor * 100).toFixed(1)} %)`,
    `  lone uncached by-NMID p95 ≤ 3 × the floor's p95 (${RATE_PER_MIN}/min): ${yes(aims.loneUncachedP95AtMost3xFloor)} (${atRate.rateUncached.p95VsFloor.toFixed(2)} ×)`,
    '',
    'Latency percentiles are exact (nearest rank) over every 2xx response time of a run, in ms; ratios are per round against',
    "that round's floor, then the median. req/s counts 2xx responses over the run's duration. CPU: utime + stime from",
    "/proc/<pid>/stat around each measured run, per 1,000 2xx responses (pg:stack = this database's backends of the subgraph",
    "roles, pg:floor = the floor's, loadgen = this process); total excludes loadgen.",
    '',
  ];
  process.stdout.write(lines.join('\n'));
  const clean = (r: Run) => ({
    ...r,
    rps: round2(r.rps),
    p50Ms: round2(r.p50Ms),
    p95Ms: round2(r.p95Ms),
    p99Ms: round2(r.p99Ms),
    durationSecs: round2(r.durationSecs),
    cpuSecs: Object.fromEntries(Object.entries(r.cpuSecs).map(([k, v]) => [k, round2(v)])),
    cpuSecsPer1k: Object.fromEntries(Object.entries(r.cpuSecsPer1k).map(([k, v]) => [k, round4(v)])),
  });
  const json = {
    benchmark: 'psp',
    date: new Date().toISOString(),
    machine: {
      cpus: cpus.length,
      model: cpus[0]?.model,
      node: process.version,
      loadavg1Before: round2(loadBefore[0]),
      loadavg1After: round2(loadAfter[0]),
    },
    settings: {
      ...SETTINGS,
      copies: STACK_COPIES,
      bankBatchInFlight: BANK_BATCH_IN_FLIGHT,
      restSubgraphs: EMBEDDED ? 'in-process' : 'http',
      ratePerMin: RATE_PER_MIN,
      hotGroups: HOT_GROUPS,
      hotPairs: seeded.hot.length,
      coldPairs: seeded.cold.length,
      uncachedRateCap: cold[0]?.rateCap,
      uncachedRunsAtCap: cappedRuns,
      seeded: seeded.created,
      latency: 'exact nearest-rank percentiles of 2xx response times, ms',
    },
    atRate,
    summary,
    idleCpuSecsPerSec: idle,
    events: { fullPath: integrity, floor: floorIntegrity },
    aims,
    runs: [...rateRuns, ...runs].map(clean),
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
  async () => {
    await stopAll();
    if (!interrupted) process.exit(0);
  },
  (error: Error) => {
    if (interrupted) return;
    progress(`bench failed: ${error.message}`);
    void stopAll().then(() => process.exit(1));
  },
);
