import 'reflect-metadata';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import { loadConfig } from '@lib/config/config';
import { roleOf } from '@lib/db/database-urls';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { CPU_LABELS, type CpuLabel, CpuSampler } from './cpu';
import { bankLookup, bankPost, jakartaNow, tenantTokens } from './demo-clients';
import { BY_NMID_SQL } from './floor-sql';
import { envInt, percentile, progress, sleep, startBenchStack, stopAll, stopSome, syncBankViewCopy } from './harness';

/**
 * `npm run bench:scale` (issue 18 §1): the cost of the documented hot paths as the data grows. For each scale factor
 * (BENCH_SCALE_FACTORS, default "1,10") the database grows to that size — set-based SQL (`insert … select … from
 * generate_series`), never a row at a time — and the whole stack (plus the by-NMID floor) is started on it and
 * measured at a fixed, moderate rate per path, all paths at once, open loop: p50/p95/p99 per path and the p95 as a
 * ratio to its value at the first factor. At the largest factor the hottest statements are run under
 * `EXPLAIN (ANALYZE, BUFFERS)` and their plans printed.
 *
 * One factor (1×) is BENCH_SCALE_MERCHANTS (10,000) merchants with 2 outlets (2 NMIDs) and 2 terminals each,
 * BENCH_SCALE_TX_PER_MERCHANT (30) transactions per merchant over the last 13 months (300,000) with one payment event
 * each, one settlement per merchant and month with settled transactions, BENCH_SCALE_PRODUCTS (5) products with a
 * variant per merchant; every fifth merchant belongs to the demo bank (BDEMO), the others to 19 synthetic banks.
 * 100× is the issue's national slice (1 M merchants, 30 M transactions and events). The demo data (npm start's) stays
 * as it is: the paths that read one merchant's rows (partner lists and scoring, the app's transactions, the POS pull)
 * read the demo merchant's fixed history while the tables around it grow. Factors are cumulative: 10 after 1 loads
 * the 9 missing factors.
 *
 * Loading (issue 18 §1: minutes, not hours): each chunk of BENCH_SCALE_CHUNK (10,000) merchants is one transaction,
 * one set-based statement per table (one for transactions, events, their key rows and settlements) with triggers off;
 * the triggers' effects are written set-based (key tables, rollup invalidation) and checked after the load. Progress
 * shows the seconds per step: about 13 s per 10,000 merchants on a shared 2-CPU machine, 32 s before the clone
 * statements stopped evaluating their record once per column (docs/benchmarks.md "Loading"). Two options trade
 * the old physical layout for speed: BENCH_SCALE_REBUILD_INDEXES=1 drops the loaded tables' secondary indexes for the
 * load and rebuilds them under their former names before VACUUM (ANALYZE) and the measurement (a tenth faster at 10×;
 * the indexes whose leading column is the bank or received_at come out up to 43 % smaller, filled as a fresh build
 * is), BENCH_SCALE_LOAD_CONNECTIONS=2 loads two chunks at a time (chunks a fifth faster on a busy 2-CPU machine; the two
 * chunks' heap pages interleave, merchant_id's correlation 0.98 instead of 1.00). BENCH_SCALE_LOAD_ONLY=1 loads (and
 * vacuums) without starting the stack for measurement and prints a JSON summary of the load.
 *
 * The database is BENCH_SCALE_DATABASE_URL, or DATABASE_URL's server with the database qris_bench_scale; it must be
 * named qris_bench_scale…, is dropped and created at the start, and dropped at the end unless BENCH_SCALE_KEEP=1.
 * Progress goes to stderr; tables, plans and a one-line JSON summary (last line) to stdout. A benchmark, not a test.
 */

const SETTINGS = {
  factors: (process.env.BENCH_SCALE_FACTORS ?? '1,10').split(',').map((f) => {
    const n = Number(f.trim());
    if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_SCALE_FACTORS: ${f} is not a positive integer`);
    return n;
  }),
  merchants: envInt('BENCH_SCALE_MERCHANTS', 10_000),
  txPerMerchant: envInt('BENCH_SCALE_TX_PER_MERCHANT', 30),
  products: envInt('BENCH_SCALE_PRODUCTS', 5),
  /** Merchants loaded per statement. */
  chunk: envInt('BENCH_SCALE_CHUNK', 10_000),
  /** Connections loading chunks side by side (one backend, one core each). */
  loadConnections: Math.max(1, envInt('BENCH_SCALE_LOAD_CONNECTIONS', 1)),
  /** Drop the loaded tables' secondary indexes for the load and rebuild them after it (default: maintain them row by row). */
  rebuildIndexes: process.env.BENCH_SCALE_REBUILD_INDEXES === '1',
  secs: envInt('BENCH_SCALE_SECS', 40),
  keep: process.env.BENCH_SCALE_KEEP === '1',
  /** Load (and vacuum) only: no stack, no measurement, no plans. */
  loadOnly: process.env.BENCH_SCALE_LOAD_ONLY === '1',
};
const REST_PORT = envInt('BENCH_REST_PORT', 18680);
const GATEWAY_PORT = envInt('BENCH_GATEWAY_PORT', 14600);
/** Synthetic banks besides the demo bank, which owns every fifth merchant. */
const OTHER_BANKS = 19;

// ---------------------------------------------------------------------------------------------------------
// Ids. Synthetic rows have ids 019b<kind>…-7…-8… (UUIDv7-shaped), NMIDs ID5<k><merchant, 9 digits>; the demo data's
// are 019a… and ID1…, the sandbox's ID99…, bench:psp's ID77….

const KIND = {
  merchant: 1,
  outlet: 2,
  terminal: 3,
  transaction: 4,
  event: 5,
  settlement: 6,
  product: 7,
  variant: 8,
  bank: 9,
  demoProduct: 10,
};

/** The same id as the SQL function bench_scale.uid(kind, n). */
const uid = (kind: number, n: number) => {
  const tail = n.toString(16).padStart(15, '0');
  return `019b${kind.toString(16).padStart(4, '0')}-0000-7000-8${tail.slice(0, 3)}-${tail.slice(3)}`;
};
const nmidOf = (m: number, k: number) => `ID5${k}${String(m).padStart(9, '0')}`;

/**
 * Helpers the load's statements call once per row or more. Each is a single immutable expression, so the planner
 * inlines it; with `'ID5' || k` (text || int: the stable anynonarray operator) nmid was not inlined, and each of its
 * three calls per transaction ran the SQL function executor.
 */
const FUNCTIONS_SQL = `
create schema if not exists bench_scale;
create or replace function bench_scale.uid(kind int, n bigint) returns uuid language sql immutable as
  $$ select ('019b' || lpad(to_hex(kind), 4, '0') || '00007000' || '8' || lpad(to_hex(n), 15, '0'))::uuid $$;
create or replace function bench_scale.nmid(m bigint, k int) returns text language sql immutable as
  $$ select 'ID5' || k::text || lpad(m::text, 9, '0') $$;
create or replace function bench_scale.bank_code(m bigint) returns text language sql immutable as
  $$ select case when m % 5 = 0 then '${DEMO.bank.code}' else 'SCL' || lpad((1 + m % ${OTHER_BANKS})::text, 2, '0') end $$;
create or replace function bench_scale.bank_id(m bigint) returns uuid language sql immutable as
  $$ select case when m % 5 = 0 then '${DEMO.bank.id}'::uuid else bench_scale.uid(${KIND.bank}, 1 + m % ${OTHER_BANKS}) end $$;
`;

/**
 * Rows cloned from a demo row (every column, whatever later migrations added) with the given columns replaced:
 * jsonb_populate_record over the template's to_jsonb. For the small tables; the big ones name their columns. The
 * record comes from a lateral call, evaluated once per row: `(jsonb_populate_record(…)).*` would evaluate it once per
 * column (41 times for a merchant, 96 % of the statement's time).
 */
const clone = (table: string, template: string, series: string, overrides: string) => `
insert into ${table}
select r.*
  from (${template} limit 1) tpl, ${series},
       lateral jsonb_populate_record(null::${table}, to_jsonb(tpl) || jsonb_build_object(${overrides})) r`;

/** Merchants [$1, $2): merchants, outlets, terminals, products and variants, cloned from the demo merchant MRC-DEMO0002's rows. */
const tpl = DEMO.otherMerchants[0];
const MERCHANT_SQL: [string, string][] = [
  [
    'merchants',
    clone(
      'merchant.merchants',
      `select * from merchant.merchants where id = '${tpl.id}'`,
      'generate_series($1::bigint, $2::bigint - 1) m',
      `'id', bench_scale.uid(${KIND.merchant}, m), 'merchant_code', 'MRC-S' || lpad(m::text, 9, '0'), 'name', 'Toko Skala ' || m,
     'legal_name', 'CV Toko Skala ' || m, 'bank_id', bench_scale.bank_id(m), 'primary_nmid', bench_scale.nmid(m, 0),
     'phone', '+62812' || lpad(m::text, 9, '0'), 'email', 'toko' || m || '@skala.example', 'referral_code', null,
     'status', 'active', 'sandbox', false, 'created_at', $3::timestamptz - interval '400 days' + (m % 300) * interval '1 hour',
     'updated_at', $3::timestamptz - interval '30 days', 'psp_visible_at', $3::timestamptz - interval '399 days',
     'nmid_assigned_at', $3::timestamptz - interval '399 days'`,
    ),
  ],
  [
    'outlets',
    clone(
      'outlet.outlets',
      `select * from outlet.outlets where id = '${tpl.outlets[0].id}'`,
      'generate_series(2 * $1::bigint, 2 * $2::bigint - 1) o',
      `'id', bench_scale.uid(${KIND.outlet}, o), 'merchant_id', bench_scale.uid(${KIND.merchant}, o / 2),
     'code', case when o % 2 = 0 then 'PUSAT' else 'CABANG-1' end, 'name', 'Toko Skala ' || (o / 2) || ' – ' || (o % 2),
     'nmid', bench_scale.nmid(o / 2, (o % 2)::int), 'mid', null, 'nmid_status', 'active', 'nmid_bank_code', bench_scale.bank_code(o / 2),
     'is_default', o % 2 = 0, 'is_active', true, 'deleted_at', null, 'qris_static_payload', null,
     'created_at', $3::timestamptz - interval '400 days', 'updated_at', $3::timestamptz - interval '30 days',
     'nmid_assigned_at', $3::timestamptz - interval '399 days'`,
    ),
  ],
  [
    'terminals',
    clone(
      'outlet.terminals',
      `select * from outlet.terminals where outlet_id = '${tpl.outlets[0].id}'`,
      'generate_series(2 * $1::bigint, 2 * $2::bigint - 1) o',
      `'id', bench_scale.uid(${KIND.terminal}, o), 'merchant_id', bench_scale.uid(${KIND.merchant}, o / 2),
     'outlet_id', bench_scale.uid(${KIND.outlet}, o), 'tid', 'TS' || lpad(o::text, 10, '0'), 'serial_number', 'SN-S' || o,
     'status', 'online', 'last_seen_at', $3::timestamptz - (o % 97) * interval '1 minute',
     'created_at', $3::timestamptz - interval '400 days', 'updated_at', $3::timestamptz - interval '30 days'`,
    ),
  ],
];
/** Products [$1 × $4, $2 × $4) with one default variant each, $4 per merchant, as bench/pos.ts writes them. */
const PRODUCT_SQL: [string, string][] = [
  [
    'products',
    `insert into catalog.products (id, merchant_id, name, sku, sell_price_amount, track_stock, created_at, updated_at)
   select bench_scale.uid(${KIND.product}, p), bench_scale.uid(${KIND.merchant}, p / $4), 'Produk ' || p, 'SKU-S' || p, 1000 + p % 50000,
          p % 2 = 0, $3::timestamptz - interval '300 days', $3::timestamptz - (p % 300) * interval '1 day'
     from generate_series($1::bigint * $4, $2::bigint * $4 - 1) p`,
  ],
  [
    'variants',
    `insert into catalog.variants (id, merchant_id, product_id, name, sku, is_default, created_at, updated_at)
   select bench_scale.uid(${KIND.variant}, p), bench_scale.uid(${KIND.merchant}, p / $4), bench_scale.uid(${KIND.product}, p),
          'Produk ' || p, 'SKU-S' || p, true, $3::timestamptz - interval '300 days', $3::timestamptz - (p % 300) * interval '1 day'
     from generate_series($1::bigint * $4, $2::bigint * $4 - 1) p`,
  ],
];
/** The demo merchant's catalog for the POS pull: DEMO_PRODUCTS products with their default variants, the same at every factor. */
const DEMO_PRODUCTS = 1000;
const DEMO_PRODUCT_SQL = `
with p as (
  insert into catalog.products (id, merchant_id, name, sku, sell_price_amount, track_stock, created_at, updated_at)
  select bench_scale.uid(${KIND.demoProduct}, n), '${DEMO.merchantId}', 'Produk Skala ' || n, 'SCALE-' || n, 1000 + n, n % 2 = 0, now(), now()
    from generate_series(1, ${DEMO_PRODUCTS}) n
  returning id, merchant_id, name, sku)
insert into catalog.variants (id, merchant_id, product_id, name, sku, is_default, created_at, updated_at)
select gen_random_uuid(), merchant_id, id, name, sku, true, now(), now() from p`;

/**
 * Transactions of merchants [$1, $2) ($4 per merchant, alternating outlets, one in each 395/$4-day slot of the 395 days
 * before $3 at a pseudo-random second; 1 in 37
 * failed), one payment event each, and one settlement per merchant and month of its settled successes (older than two
 * days): one statement, so the three agree. The loader runs with triggers off (session_replication_role = replica), so
 * it also fills the key tables the guard triggers would (docs/decisions/0208-partitioned-history.md).
 */
const TRANSACTION_SQL = `
with s as materialized (
  select t, m, k, at, status, gross,
         case when status = 'success' then round(gross * 0.007)::bigint else 0 end as fee,
         status = 'success' and at < $3::timestamptz - interval '2 days' as settled,
         floor(extract(epoch from $3::timestamptz - at) / (30 * 86400))::int as mon
    from (select t, t / $4 as m, (t % 2)::int as k,
                 $3::timestamptz - (600 + (t % $4) * (395 * 86400 / $4) + (t * 7919 + (t * t) % 104729) % (395 * 86400 / $4))
                   * interval '1 second' as at,
                 case when t % 37 = 0 then 'failed' else 'success' end as status,
                 5000 + (t * 977 % 200) * 500 as gross
            from generate_series($1::bigint * $4, $2::bigint * $4 - 1) t) g
), tx as (
  insert into "transaction".transactions (id, merchant_id, outlet_id, terminal_id, transaction_code, status, gross_amount,
      transaction_at, created_at, updated_at, bank_code, nmid, external_reference, rrn, payer_bank_code, payer_bank_name,
      payer_name_masked, mdr_rate, mdr_fee_amount, net_amount_after_mdr, mdr_fee_bank, switching_fee, platform_fee,
      settlement_status, settled_at, settlement_ref)
  select bench_scale.uid(${KIND.transaction}, t), bench_scale.uid(${KIND.merchant}, m), bench_scale.uid(${KIND.outlet}, 2 * m + k),
         bench_scale.uid(${KIND.terminal}, 2 * m + k), 'TRX-S' || t, status, gross, at, at, at, bench_scale.bank_code(m),
         bench_scale.nmid(m, k), 'REF-S' || t, lpad(t::text, 12, '0'), '014', 'BCA', 'B*** S***',
         case when fee > 0 then 0.0070 else 0 end, fee, gross - fee, fee / 2, fee / 5, 0,
         case when settled then 'settled' else 'unsettled' end, case when settled then at + interval '1 day' end,
         case when settled then bench_scale.uid(${KIND.settlement}, m * 16 + mon) end
    from s
), codes as (
  insert into "transaction".transaction_codes (bank_code, transaction_code, transaction_id, transaction_at)
  select bench_scale.bank_code(m), 'TRX-S' || t, bench_scale.uid(${KIND.transaction}, t), at from s
), keys as (
  insert into "transaction".payment_event_keys (bank_code, external_event_id, event_id, received_at)
  select bench_scale.bank_code(m), 'EVT-S' || t, bench_scale.uid(${KIND.event}, t), at + interval '2 seconds' from s
), ev as (
  insert into "transaction".payment_events (id, bank_code, external_event_id, event_type, payload, nmid, merchant_id, outlet_id,
      multi_outlet, terminal_id, transaction_id, status, flow, error_code, applied, applied_at, received_at)
  select bench_scale.uid(${KIND.event}, t), bench_scale.bank_code(m), 'EVT-S' || t, 'transaction.' || status,
         jsonb_build_object('external_event_id', 'EVT-S' || t, 'event_type', 'transaction.' || status, 'nmid', bench_scale.nmid(m, k),
           'gross_amount', gross, 'transaction_code', 'TRX-S' || t, 'reference_number', 'REF-S' || t, 'rrn', lpad(t::text, 12, '0'),
           'transaction_at', to_char(at at time zone 'Asia/Jakarta', 'YYYY-MM-DD"T"HH24:MI:SS"+07:00"'), 'payer_bank_code', '014',
           'payer_bank_name', 'BCA', 'payer_name_masked', 'B*** S***', 'mdr_fee_bank', fee / 2, 'switching_fee', fee / 5,
           'platform_fee', 0, 'status', status),
         bench_scale.nmid(m, k), bench_scale.uid(${KIND.merchant}, m), bench_scale.uid(${KIND.outlet}, 2 * m + k), false,
         bench_scale.uid(${KIND.terminal}, 2 * m + k), bench_scale.uid(${KIND.transaction}, t), 'success',
         case when status = 'success' then 'transaction.created' else 'transaction.failed_recorded' end, null, true,
         at + interval '2 seconds', at + interval '2 seconds'
    from s
)
insert into "transaction".settlements (id, bank_code, external_event_id, settlement_id, nmid, merchant_id, outlet_id, gross_amount,
    mdr_total, net_amount, settlement_date, completed_at, payload, status, error_code, matched_count, matched_amount, received_at)
select bench_scale.uid(${KIND.settlement}, m * 16 + mon), bench_scale.bank_code(m), 'EVT-SETL-S' || m || '-' || mon,
       'SETL-S' || m || '-' || mon, bench_scale.nmid(m, 0), bench_scale.uid(${KIND.merchant}, m), bench_scale.uid(${KIND.outlet}, 2 * m),
       sum(gross), sum(fee), sum(gross) - sum(fee), (max(at) at time zone 'Asia/Jakarta')::date + 1, max(at) + interval '1 day',
       '{"synthetic": true}'::jsonb, 'success', null, count(*), sum(gross), max(at) + interval '1 day'
  from s where settled group by m, mon`;

const COUNTED = [
  'merchant.merchants',
  'outlet.outlets',
  'outlet.terminals',
  '"transaction".transactions',
  '"transaction".payment_events',
  '"transaction".transaction_codes',
  '"transaction".payment_event_keys',
  '"transaction".settlements',
  'catalog.products',
] as const;
const VACUUMED = [
  ...COUNTED,
  'catalog.variants',
  'outlet.merchant_profiles',
  '"transaction".payment_targets',
  '"transaction".payment_target_outlet_sets',
  '"transaction".payment_target_merchants',
];

interface LoadReport {
  factor: number;
  secs: number;
  /** Seconds per load step (table, index drop and rebuild). */
  steps: Record<string, number>;
  vacuumSecs: number;
  rows: Record<string, number>;
  bytes: Record<string, number>;
}

// ---------------------------------------------------------------------------------------------------------
// Loading, per factor: the merchants chunk by chunk with triggers off, then what the triggers would have done, set-based
// (optionally with the secondary indexes dropped before and rebuilt after); main() then checks the key tables.

/** The tables the load writes. */
const LOADED = [
  'merchant.merchants',
  'outlet.outlets',
  'outlet.terminals',
  'catalog.products',
  'catalog.variants',
  '"transaction".transactions',
  '"transaction".payment_events',
  '"transaction".transaction_codes',
  '"transaction".payment_event_keys',
  '"transaction".settlements',
];

/** A secondary index as pg_get_indexdef writes it; a partitioned one (`on only` its table) with each partition's. */
interface SecondaryIndex {
  name: string;
  definition: string;
  partitions: { name: string; definition: string }[];
}

/**
 * With BENCH_SCALE_REBUILD_INDEXES=1 the loaded tables' secondary indexes (neither unique nor backing a constraint:
 * the primary keys, unique keys and the key tables' guards stay and are checked row by row during the load) are
 * dropped before it and rebuilt after it: one sort per index instead of nine B-tree insertions per transaction.
 */
async function dropSecondaryIndexes(pg: PgClient): Promise<SecondaryIndex[]> {
  const { rows } = await pg.query<SecondaryIndex>(
    `select c.oid::regclass::text as name, pg_get_indexdef(c.oid) as definition,
            coalesce((select json_agg(json_build_object('name', p.inhrelid::regclass::text, 'definition', pg_get_indexdef(p.inhrelid))
                                      order by p.inhrelid::regclass::text)
                        from pg_inherits p where p.inhparent = c.oid), '[]') as partitions
       from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = any($1::regclass[]) and not i.indisunique and not i.indisprimary
        and not exists (select 1 from pg_constraint k where k.conindid = c.oid)
      order by 1`,
    [LOADED],
  );
  for (const index of rows) await pg.query(`drop index ${index.name}`);
  return rows;
}

/**
 * The dropped indexes again, each under its own name: a partitioned one is created `on only` its table, each
 * partition's index is built with its former name and attached (the parent is valid once all are).
 */
async function rebuildIndexes(pg: PgClient, indexes: SecondaryIndex[]): Promise<void> {
  for (const index of indexes) {
    await pg.query(index.definition);
    for (const partition of index.partitions) {
      await pg.query(partition.definition);
      await pg.query(`alter index ${index.name} attach partition ${partition.name}`);
    }
  }
}

/** One chunk, merchants [a, b), in one transaction. */
async function loadChunk(pg: PgClient, a: number, b: number, anchor: Date): Promise<void> {
  await pg.query('begin');
  for (const [table, sql] of MERCHANT_SQL) await timed(table, () => pg.query(sql, [a, b, anchor]));
  if (SETTINGS.products > 0) {
    for (const [table, sql] of PRODUCT_SQL) await timed(table, () => pg.query(sql, [a, b, anchor, SETTINGS.products]));
  }
  await timed('transactions, events, settlements', () => pg.query(TRANSACTION_SQL, [a, b, anchor, SETTINGS.txPerMerchant]));
  await timed('commit', () => pg.query('commit'));
}

/**
 * What the insert trigger transactions_invalidate_inserted_rollups would have done: drop the daily rollups of the
 * loaded merchants' days (there are none, the statistics are computed on first read; kept so the load leaves the
 * rollups as normal writes would). The key tables are written by TRANSACTION_SQL itself.
 */
async function invalidateRollups(pg: PgClient, from: number, to: number): Promise<void> {
  await pg.query(
    `delete from "transaction".merchant_daily_rollups
      where merchant_id between bench_scale.uid(${KIND.merchant}, $1) and bench_scale.uid(${KIND.merchant}, $2)`,
    [from, to - 1],
  );
}

/** Seconds per load step, over the current factor. */
const stepSecs: Record<string, number> = {};

async function timed<T>(step: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    stepSecs[step] = (stepSecs[step] ?? 0) + (performance.now() - started) / 1000;
  }
}

const secsText = (steps: Record<string, number>) =>
  Object.entries(steps)
    .map(([step, secs]) => `${step} ${secs.toFixed(1)}`)
    .join(', ');

/** A loading session: no triggers, no wait for WAL flushes, memory for the hash aggregate and the index sorts. */
const LOAD_SESSION_SQL = `set session_replication_role = replica; set synchronous_commit = off; set jit = off;
  set work_mem = '1GB'; set maintenance_work_mem = '1GB'`;

/**
 * Merchants [from, to) and everything of theirs; the seconds it took and per step (summed over the connections).
 * Triggers are off (session_replication_role = replica: no guard, sync-stamp or foreign-key triggers; the rows agree
 * by construction and TRANSACTION_SQL writes the key tables); work_mem holds the events' transition table, which
 * PostgreSQL still collects for the (disabled) statement triggers. SETTINGS.loadConnections sessions take the
 * chunks in turn.
 */
async function loadTo(
  databaseUrl: string,
  pg: PgClient,
  from: number,
  to: number,
  anchor: Date,
): Promise<{ secs: number; steps: Record<string, number> }> {
  const started = performance.now();
  for (const step of Object.keys(stepSecs)) delete stepSecs[step];
  const workers = [pg];
  try {
    for (let k = 1; k < SETTINGS.loadConnections; k += 1) {
      const worker = new PgClient({ connectionString: databaseUrl, application_name: `bench-scale-load-${k}` });
      await worker.connect();
      workers.push(worker);
    }
    for (const worker of workers) await worker.query(LOAD_SESSION_SQL);
    const indexes = SETTINGS.rebuildIndexes ? await timed('drop indexes', () => dropSecondaryIndexes(pg)) : [];
    let next = from;
    let done = 0;
    await Promise.all(
      workers.map(async (worker) => {
        while (next < to) {
          const a = next;
          const b = Math.min(to, a + SETTINGS.chunk);
          next = b;
          await loadChunk(worker, a, b, anchor);
          done += b - a;
          progress(
            `  merchants ${(from + done).toLocaleString('en')} / ${to.toLocaleString('en')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
          );
        }
      }),
    );
    await timed('rollups', () => invalidateRollups(pg, from, to));
    if (SETTINGS.rebuildIndexes) await timed('rebuild indexes', () => rebuildIndexes(pg, indexes));
    await pg.query('reset all');
    progress(
      `  ${SETTINGS.rebuildIndexes ? `${indexes.length} secondary indexes dropped and rebuilt; ` : ''}seconds per step (${workers.length} connection${workers.length > 1 ? 's' : ''}): ${secsText(stepSecs)}`,
    );
  } finally {
    for (const worker of workers.slice(1)) await worker.end().catch(() => undefined);
  }
  return { secs: (performance.now() - started) / 1000, steps: { ...stepSecs } };
}

/**
 * The guard tables agree with what they guard, as the insert triggers keep them: a transaction_codes row per
 * transaction with a bank code, a payment_event_keys row per event (their primary keys rule out duplicates).
 */
async function checkKeyTables(pg: PgClient, rows: Record<string, number>): Promise<void> {
  const { rows: r } = await pg.query<{ n: string }>(
    `select count(*)::text as n from "transaction".transactions where bank_code is not null`,
  );
  const coded = Number(r[0].n);
  if (rows['transaction.transaction_codes'] !== coded || rows['transaction.payment_event_keys'] !== rows['transaction.payment_events'])
    throw new Error(
      `key tables out of step: ${rows['transaction.transaction_codes']} codes for ${coded} transactions with a bank code, ` +
        `${rows['transaction.payment_event_keys']} event keys for ${rows['transaction.payment_events']} events`,
    );
}

async function tableFigures(pg: PgClient): Promise<{ rows: Record<string, number>; bytes: Record<string, number> }> {
  const rows: Record<string, number> = {};
  const bytes: Record<string, number> = {};
  for (const table of COUNTED) {
    const { rows: r } = await pg.query<{ n: string; b: string }>(
      // A partitioned table's own size is 0: its partitions' sizes add up to it.
      `select (select count(*) from ${table})::text as n,
              coalesce(nullif((select sum(pg_total_relation_size(relid)) from pg_partition_tree('${table}')), 0),
                       pg_total_relation_size('${table}'))::text as b`,
    );
    rows[table.replaceAll('"', '')] = Number(r[0].n);
    bytes[table.replaceAll('"', '')] = Number(r[0].b);
  }
  return { rows, bytes };
}

// ---------------------------------------------------------------------------------------------------------
// Measurement: every path open loop at its rate, all at once.

interface Req {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Path {
  label: string;
  /** Requests per second; under the route's documented limit per key (psp-api.md §8, partner-api.md §8). */
  rate: number;
  floor?: boolean;
  build: (i: number) => Req;
  /** Sees every answer (the merchant list follows its cursor). */
  after?: (status: number, text: string) => void;
}
interface PathResult {
  label: string;
  rate: number;
  sent: number;
  statusCounts: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
}

function paths(merchants: number, tokens: { partnerA: string; partnerB: string; user: string }, internalKey: string, run: string): Path[] {
  // The demo bank's merchants are every fifth: j → merchant 5j. A stride coprime with their count visits each once.
  const bankMerchants = Math.floor(merchants / 5);
  const stride = 7919;
  const pick = (offset: number, i: number) => 5 * ((offset + i * stride) % bankMerchants);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  let cursor: string | null = null;
  return [
    {
      label: 'PSP by-NMID (uncached)',
      rate: 10,
      build: (i) => bankLookup(`/api/psp/v1/merchants/by-nmid/${nmidOf(pick(0, i), i % 2)}`),
    },
    {
      label: 'floor: by-NMID, one statement',
      rate: 10,
      floor: true,
      build: (i) => bankLookup(`/api/psp/v1/merchants/by-nmid/${nmidOf(pick(Math.floor(bankMerchants / 2), i), i % 2)}`),
    },
    {
      label: 'PSP merchant detail',
      rate: 5,
      build: (i) => bankLookup(`/api/psp/v1/merchants/${uid(KIND.merchant, pick(Math.floor(bankMerchants / 3), i))}`),
    },
    {
      label: 'PSP merchant list, cursor (limit 100)',
      rate: 0.9,
      build: () => bankLookup(`/api/psp/v1/merchants?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      after: (status, text) => {
        if (status === 200) cursor = (JSON.parse(text) as { pagination: { next_cursor: string | null } }).pagination.next_cursor;
      },
    },
    {
      label: 'PSP event intake (new events)',
      rate: 20,
      build: (i) => {
        const id = `SCALE-${run}-${i}`;
        return bankPost('/psp/v1/events', {
          external_event_id: id,
          event_type: 'transaction.success',
          nmid: nmidOf(pick(7, i), i % 2),
          gross_amount: 25_000,
          transaction_code: `TRX-${id}`,
          reference_number: `REF-${id}`,
          transaction_at: jakartaNow(),
          payer_bank_code: '014',
          payer_bank_name: 'BCA',
          payer_name_masked: 'B*** S***',
          status: 'success',
        });
      },
    },
    {
      label: 'PSP settlement intake',
      rate: 4,
      build: (i) => {
        const id = `SCALE-SETL-${run}-${i}`;
        return bankPost('/psp/v1/settlements', {
          external_event_id: id,
          settlement_id: id,
          nmid: nmidOf(pick(11, i), 0),
          bank_code: DEMO.bank.code,
          gross_amount: 0,
          mdr_total: 0,
          net_amount: 0,
          settlement_date: jakartaNow().slice(0, 10),
          completed_at: jakartaNow(),
        });
      },
    },
    {
      label: 'partner B transactions limit=500',
      rate: 0.9,
      build: () => ({
        method: 'GET',
        path: `/api/partner/v1/merchants/${DEMO.merchantId}/transactions?limit=500`,
        headers: bearer(tokens.partnerB),
      }),
    },
    {
      label: 'partner A scoring summary',
      rate: 0.9,
      build: () => ({
        method: 'GET',
        path: `/api/partner/v1/merchants/${DEMO.merchantId}/scoring-summary`,
        headers: bearer(tokens.partnerA),
      }),
    },
    {
      label: 'app /merchant/transactions (month)',
      rate: 5,
      build: () => ({ method: 'GET', path: '/merchant/transactions?period=month', headers: bearer(tokens.user) }),
    },
    {
      label: 'POS sync pull (products, 200)',
      rate: 5,
      build: () => ({
        method: 'GET',
        path: '/poslite/sync/pull?entity=products&limit=200',
        headers: { 'x-internal-api-key': internalKey, 'x-merchant-id': DEMO.merchantId },
      }),
    },
  ];
}

async function send(origin: string, req: Req): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  const res = await request(`${origin}${req.path}`, { method: req.method, headers: req.headers, body: req.body });
  const text = await res.body.text();
  return { status: res.statusCode, text, ms: performance.now() - started };
}

/** One path open loop: request i is sent at start + i / rate whatever the earlier ones are doing. */
async function runPath(origin: string, path: Path, secs: number, offset: number): Promise<PathResult> {
  const total = Math.max(1, Math.floor(secs * path.rate));
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const inflight: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / path.rate - performance.now();
    if (wait > 0) await sleep(wait);
    inflight.push(
      send(origin, path.build(offset + i)).then(
        ({ status, text, ms }) => {
          statusCounts[status] = (statusCounts[status] ?? 0) + 1;
          if (status < 400) latencies.push(ms);
          path.after?.(status, text);
        },
        () => {
          statusCounts.error = (statusCounts.error ?? 0) + 1;
        },
      ),
    );
  }
  await Promise.all(inflight);
  const sorted = Float64Array.from(latencies).sort();
  return {
    label: path.label,
    rate: path.rate,
    sent: total,
    statusCounts,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

interface FactorReport extends LoadReport {
  startSecs: number;
  results: PathResult[];
  cpuSecs: Record<CpuLabel, number>;
  load: { before: number[]; after: number[] };
}

async function measure(databaseUrl: string, merchants: number, run: string): Promise<Omit<FactorReport, keyof LoadReport>> {
  const started = performance.now();
  const bench = await startBenchStack({ databaseUrl, restPort: REST_PORT, gatewayPort: GATEWAY_PORT, floorEnv: { FLOOR_PSP: '1' } });
  const startSecs = (performance.now() - started) / 1000;
  const pg = new PgClient({ connectionString: databaseUrl, application_name: 'bench-scale' });
  await pg.connect();
  try {
    const config = loadConfig();
    const tokens = await tenantTokens(bench.rest, pg, config);
    const list = paths(merchants, tokens, config.secrets.internalApiKey, run);
    // The floor holds the demo bank's lookup key in memory, as the REST adapter's credential cache does.
    const { rows: bankRows } = await pg.query<{ tier: string }>('select tier from merchant.banks where id = $1', [DEMO.bank.id]);
    const floorKeys = await request(`${bench.floorOrigin}/floor/keys`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        keys: [
          {
            keyId: DEMO.bank.lookupKeyId,
            secret: DEMO.bank.lookupSecret,
            purpose: 'lookup',
            bankId: DEMO.bank.id,
            bankCode: DEMO.bank.code,
            tier: bankRows[0].tier === 'tier1' ? 1 : 2,
          },
        ],
      }),
    });
    await floorKeys.body.dump();
    if (floorKeys.statusCode !== 200) throw new Error(`the floor refused the key (${floorKeys.statusCode})`);
    // One probe per path (indices far from the measured ones), which must succeed: the setup is right.
    for (const [n, p] of list.entries()) {
      const { status, text } = await send(p.floor ? bench.floorOrigin : bench.rest, p.build(1_000_000 + n));
      if (status >= 400) throw new Error(`${p.label}: ${status} ${text.slice(0, 300)}`);
      p.after?.(status, text);
    }
    progress(`measuring ${list.length} paths at once for ${SETTINGS.secs} s …`);
    const cpu = new CpuSampler(
      bench.stack.child.pid!,
      bench.floor?.child.pid,
      pg,
      bench.extra.map((m) => m.child.pid!),
    );
    const loadBefore = os.loadavg();
    const before = await cpu.snapshot();
    const results = await Promise.all(list.map((p) => runPath(p.floor ? bench.floorOrigin : bench.rest, p, SETTINGS.secs, 0)));
    const after = await cpu.snapshot();
    return { startSecs, results, cpuSecs: CpuSampler.delta(before, after), load: { before: loadBefore, after: os.loadavg() } };
  } finally {
    await pg.end().catch(() => undefined);
    await stopSome([bench.floor, bench.stack, ...bench.extra]);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Plans of the hottest statements behind the paths, at the largest factor.

interface Plan {
  label: string;
  sql: string;
  params: unknown[];
  /** Run inside a transaction that is rolled back (writes). */
  write?: boolean;
  /** `set local` before it, in that transaction, as the SQL function that runs it does. */
  setLocal?: string[];
}

function plans(merchants: number, run: string): Plan[] {
  const nmid = nmidOf(5 * Math.floor(merchants / 10), 1);
  return [
    {
      label: 'by-NMID: outlet by NMID → merchant, its NMID and primary terminal (the floor’s statement)',
      sql: BY_NMID_SQL,
      params: [nmid, DEMO.bank.code, DEMO.bank.id, 2],
    },
    {
      label:
        'partner B list: the newest 500 of a merchant (TransactionRepository.feedPages → "transaction".merchant_pages: a lateral limit per merchant, sorts off; the monthly partitions are read newest first, an ordered Append, and stop once 500 are found)',
      sql: `select p.* from unnest($1::uuid[]) as m(merchant_key)
              cross join lateral (select t.* from "transaction".transactions t where t.merchant_id = m.merchant_key
                                  order by t.transaction_at desc, t.id desc limit 500) p`,
      params: [[DEMO.merchantId]],
      setLocal: ['enable_sort = off', 'jit = off'],
    },
    {
      label: 'app transactions: one month of a merchant, newest first, and its totals (partitions outside the month pruned)',
      sql: `select t.*, s.gross, s.mdr from (select * from "transaction".transactions where merchant_id = $1
              and transaction_at >= date_trunc('month', now()) order by transaction_at desc, id desc limit 20) t,
            (select coalesce(sum(gross_amount), 0) as gross, coalesce(sum(mdr_fee_amount), 0) as mdr from "transaction".transactions
              where merchant_id = $1 and status = 'success' and transaction_at >= date_trunc('month', now()) and transaction_at < now()) s`,
      params: [DEMO.merchantId],
    },
    {
      label:
        'event intake: the de-duplicating claim of a new event in the narrow key table, then its insert (PaymentEventRepository.claimAll; rolled back)',
      sql: `with claimed as (
              insert into "transaction".payment_event_keys (bank_code, external_event_id, event_id, received_at)
              values ($1, $2, gen_random_uuid(), now()) on conflict do nothing returning event_id, received_at)
            insert into "transaction".payment_events (id, bank_code, external_event_id, event_type, payload, nmid, status, flow, applied, received_at)
            select event_id, $1, $2, 'transaction.success', '{}', $3, 'success', 'transaction.created', true, received_at from claimed`,
      params: [DEMO.bank.code, `SCALE-PLAN-${run}`, nmid],
      write: true,
    },
    {
      label: 'event replay: the stored event of a (bank, external_event_id), through its key row (PaymentEventRepository.lockFirst)',
      sql: `select e.* from "transaction".payment_event_keys k
              join "transaction".payment_events e on e.id = k.event_id and e.received_at = k.received_at
             where k.bank_code = $1 and k.external_event_id = $2 for update of e`,
      params: [DEMO.bank.code, `EVT-S${5 * Math.floor(merchants / 10) * SETTINGS.txPerMerchant}`],
      write: true,
    },
    {
      label: 'refund: the original of a (bank, transaction_code), through its key row (PaymentEventRepository.lockOriginal)',
      sql: `select t.* from "transaction".transaction_codes k
              join "transaction".transactions t on t.id = k.transaction_id and t.transaction_at = k.transaction_at
             where k.bank_code = $1 and k.transaction_code = $2 and t.merchant_id = $3 for update of t`,
      params: [
        DEMO.bank.code,
        `TRX-S${5 * Math.floor(merchants / 10) * SETTINGS.txPerMerchant}`,
        uid(KIND.merchant, 5 * Math.floor(merchants / 10)),
      ],
      write: true,
    },
    {
      label: 'settlement matching: a bank’s unsettled successes of one NMID up to a time',
      sql: `select id, gross_amount, mdr_fee_amount from "transaction".transactions
             where nmid = $1 and status = 'success' and settlement_status = 'unsettled' and transaction_at < now()
             order by transaction_at`,
      params: [nmid],
    },
  ];
}

async function explain(pg: PgClient, plan: Plan): Promise<string> {
  const inTransaction = plan.write || plan.setLocal;
  if (inTransaction) await pg.query('begin');
  try {
    for (const setting of plan.setLocal ?? []) await pg.query(`set local ${setting}`);
    const { rows } = await pg.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${plan.sql}`, plan.params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    if (inTransaction) await pg.query('rollback');
  }
}

// ---------------------------------------------------------------------------------------------------------

function scaleDatabaseUrl(): string {
  const explicit = process.env.BENCH_SCALE_DATABASE_URL;
  const base = explicit ?? process.env.DATABASE_URL;
  if (!base) {
    progress(
      'BENCH_SCALE_DATABASE_URL or DATABASE_URL is required (the server; the benchmark creates and drops its own database), e.g.\n' +
        '  DATABASE_URL=postgres://root@127.0.0.1:5432/postgres npm run bench:scale',
    );
    process.exit(2);
  }
  const url = new URL(base);
  if (!explicit) url.pathname = '/qris_bench_scale';
  if (!/^qris_bench_scale[a-z0-9_]*$/.test(url.pathname.slice(1)))
    throw new Error(`the scale database must be named qris_bench_scale…, not ${url.pathname.slice(1)}: it is dropped and created`);
  return url.toString();
}

async function main(): Promise<void> {
  const databaseUrl = scaleDatabaseUrl();
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const admin = new PgClient({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  progress(`database ${dbName} created; factors ${SETTINGS.factors.join(', ')} × ${SETTINGS.merchants.toLocaleString('en')} merchants`);
  const run = Date.now().toString(36);
  const reports: FactorReport[] = [];
  const loadReports: LoadReport[] = [];
  const planTexts: { label: string; plan: string }[] = [];
  try {
    // The first start migrates and loads the reference and demo data the synthetic rows are cloned from.
    const first = await startBenchStack({ databaseUrl, restPort: REST_PORT, gatewayPort: GATEWAY_PORT });
    await stopSome([first.stack, ...first.extra]);
    const pg = new PgClient({ connectionString: databaseUrl, application_name: 'bench-scale-load' });
    await pg.connect();
    try {
      await pg.query(FUNCTIONS_SQL);
      await pg.query(
        `insert into merchant.banks select (jsonb_populate_record(null::merchant.banks, to_jsonb(b) || jsonb_build_object('id', bench_scale.uid(${KIND.bank}, i),
           'code', 'SCL' || lpad(i::text, 2, '0'), 'name', 'Bank Skala ' || i, 'tier', 'external'))).*
           from merchant.banks b, generate_series(1, ${OTHER_BANKS}) i where b.id = $1`,
        [DEMO.bank.id],
      );
      await pg.query(DEMO_PRODUCT_SQL);
      const anchor = new Date();
      // Monthly partitions for the 395 days of synthetic history (and the transaction process's months ahead), created
      // as the transaction role, which owns the tables (and so may detach and attach their catch-alls later).
      const config = loadConfig();
      await pg.query(`set role ${roleOf(config, 'transaction')}`);
      for (const table of ['transactions', 'payment_events']) {
        await pg.query(
          `select count(*) from "transaction".ensure_month_partitions($1, ($2::timestamptz at time zone 'Asia/Jakarta' - interval '400 days')::date,
             ($2::timestamptz at time zone 'Asia/Jakarta' + $3 * interval '1 month')::date)`,
          [table, anchor, config.partitions.monthsAhead],
        );
      }
      await pg.query('reset role');
      let loaded = 0;
      for (const factor of [...SETTINGS.factors].sort((a, b) => a - b)) {
        const target = factor * SETTINGS.merchants;
        progress(`factor ${factor}: loading merchants ${loaded.toLocaleString('en')}–${target.toLocaleString('en')} …`);
        const { secs, steps } = await loadTo(databaseUrl, pg, loaded, target, anchor);
        loaded = target;
        // The loader's triggers are off, so its merchants and outlets enqueued no job for the copies: all are sent again.
        await syncBankViewCopy(databaseUrl, { all: true });
        const vacuumStarted = performance.now();
        for (const table of VACUUMED) await pg.query(`vacuum (analyze) ${table}`);
        const vacuumSecs = (performance.now() - vacuumStarted) / 1000;
        const figures = await tableFigures(pg);
        await checkKeyTables(pg, figures.rows);
        progress(
          `factor ${factor}: loaded in ${secs.toFixed(0)} s, vacuum/analyze ${vacuumSecs.toFixed(0)} s; ${JSON.stringify(figures.rows)}`,
        );
        if (SETTINGS.loadOnly) {
          loadReports.push({ factor, secs, steps, vacuumSecs, ...figures });
          continue;
        }
        const measured = await measure(databaseUrl, target, `${run}-${factor}`);
        reports.push({ factor, secs, steps, vacuumSecs, ...figures, ...measured });
      }
      if (SETTINGS.loadOnly) {
        process.stdout.write(`${JSON.stringify({ settings: SETTINGS, factors: loadReports })}\n`);
        return;
      }
      const largest = SETTINGS.factors.reduce((a, b) => Math.max(a, b));
      progress(`EXPLAIN (ANALYZE, BUFFERS) at factor ${largest} …`);
      for (const p of plans(largest * SETTINGS.merchants, run)) planTexts.push({ label: p.label, plan: await explain(pg, p) });
    } finally {
      await pg.end().catch(() => undefined);
    }
  } finally {
    await stopAll();
    if (!SETTINGS.keep) await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }

  const base = reports[0];
  const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–').padStart(8);
  const lines: string[] = [
    `bench:scale — ${os.cpus().length} CPUs; 1× = ${SETTINGS.merchants.toLocaleString('en')} merchants, ${(SETTINGS.merchants * SETTINGS.txPerMerchant).toLocaleString('en')} transactions; ${SETTINGS.secs} s per factor, all paths at once`,
  ];
  for (const r of reports) {
    const requests = r.results.reduce((n, x) => n + x.sent, 0);
    const stackCpu = CPU_LABELS.filter((l) => l !== 'floor' && l !== 'pg:floor' && l !== 'loadgen').reduce((s, l) => s + r.cpuSecs[l], 0);
    lines.push(
      '',
      `factor ${r.factor}: load ${r.secs.toFixed(0)} s + vacuum/analyze ${r.vacuumSecs.toFixed(0)} s; stack start ${r.startSecs.toFixed(0)} s; load average ${r.load.before[0].toFixed(2)} → ${r.load.after[0].toFixed(2)}`,
      `  rows: ${Object.entries(r.rows)
        .map(([t, n]) => `${t} ${n.toLocaleString('en')} (${(r.bytes[t] / 1048576).toFixed(0)} MB)`)
        .join(', ')}`,
      `  CPU seconds: ${CPU_LABELS.filter((l) => r.cpuSecs[l] > 0)
        .map((l) => `${l} ${r.cpuSecs[l].toFixed(1)}`)
        .join(', ')}; stack and its PostgreSQL ${((stackCpu / requests) * 1000).toFixed(2)} ms per request (all paths)`,
      `  ${'path'.padEnd(40)}${'req/s'.padStart(7)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}${'p95/1×'.padStart(8)}  non-2xx`,
      ...r.results.map((x, i) => {
        const ratio = x.p95 / base.results[i].p95;
        const non2xx =
          Object.entries(x.statusCounts)
            .filter(([s]) => s === 'error' || Number(s) >= 300)
            .map(([s, c]) => `${s}×${c}`)
            .join(' ') || '0';
        return `  ${x.label.padEnd(40)}${x.rate.toFixed(1).padStart(7)}${fmt(x.p50)}${fmt(x.p95)}${fmt(x.p99)}${(Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '–').padStart(8)}  ${non2xx}`;
      }),
    );
  }
  // Issue 18 §1: at the largest factor every path's p95 within 20 % of its 1× value, event intake within 10 %.
  const largest = reports[reports.length - 1];
  const aims = largest.results
    .filter((x) => !x.label.startsWith('floor'))
    .map((x, i) => {
      const limit = x.label.includes('event intake') ? 1.1 : 1.2;
      const ratio = x.p95 / base.results.filter((b) => !b.label.startsWith('floor'))[i].p95;
      return { label: x.label, ratio, limit, met: ratio <= limit };
    });
  if (reports.length > 1) {
    lines.push('', `Aims (issue 18 §1), p95 at ${largest.factor}× ÷ p95 at ${base.factor}× (the floor's own ratio is the noise):`);
    for (const a of aims)
      lines.push(`  ${a.label.padEnd(40)} ≤ ${a.limit.toFixed(2)}: ${a.met ? 'met' : 'NOT met'} (${a.ratio.toFixed(2)})`);
  }
  for (const p of planTexts) lines.push('', `EXPLAIN (ANALYZE, BUFFERS) — ${p.label}`, p.plan);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(
    `${JSON.stringify({
      settings: SETTINGS,
      factors: reports.map((r) => ({
        factor: r.factor,
        loadSecs: r.secs,
        loadSteps: r.steps,
        vacuumSecs: r.vacuumSecs,
        rows: r.rows,
        bytes: r.bytes,
        cpuSecs: r.cpuSecs,
        results: r.results.map((x, i) => ({ ...x, p95Ratio: x.p95 / base.results[i].p95 })),
      })),
      aims,
      plans: planTexts.map((p) => ({ label: p.label, executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(p.plan)?.[1] ?? NaN) })),
    })}\n`,
  );
}

main().catch(async (error) => {
  progress(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await stopAll();
  process.exit(1);
});
