import 'reflect-metadata';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client as PgClient } from 'pg';
import { loadConfig } from '@lib/config/config';
import { DIFFERENCE_CLASSES } from '@lib/domain/reconciliation/difference-classes';
import { withDatabase } from '@lib/db/database-urls';
import { ZonedCalendar, addDays } from '@lib/time/zoned-time';
import { migrateAll, runReconciliation } from '@scripts/database-tasks';
import { wholeDayStatement } from '@subgraphs/transaction/src/modules/reconciliation/reconciliation.repository';
import { envInt, progress } from './harness';

/**
 * `npm run bench:reconciliation` (issue 50, "Scale"): the daily reconciliation of one business day for
 * BENCH_RECON_OUTLETS (100,000) outlets (docs/decisions/0242-daily-reconciliation.md). A fresh database is migrated
 * (every subgraph's migrations, no stack) and one business day is loaded set-based (`insert … select … from
 * generate_series`, one transaction per BENCH_RECON_CHUNK (25,000) outlets, the insert triggers on, as the intake's
 * writes fire them): per outlet a live NMID (payment target), 4 payments (transactions with their payment events,
 * about 1 in 53 failed), one settlement, and 1.8 point-of-sale orders paid by QRIS (every tenth outlet's first one a
 * dynamic QRIS paid by its bill number, the others matched by amount and time). Outlets chosen by their number miss
 * their settlement, get one that settles nothing, one whose gross or MDR differs from the payments it settles, one
 * received late, a payment left unsettled, a bank fee that differs, an order paid with another amount or not at all, a
 * payment with an unknown bill number: every class of difference occurs. Then the day's run (`runDay`, as
 * `npm run ops -- reconciliation:run` does) is timed BENCH_RECON_RUNS (1) times (a second run finds every
 * difference again: its upserts update) and its figures printed: elapsed, outlet-days and differences written, the
 * differences per class, the machine's load average before and after.
 *
 * BENCH_RECON_DAYS (1) loads that many days, ending with the one measured (ids of their own, the same outlets), and
 * reconciles the ones before it first, untimed: the tables then hold history, as a live database does, which a plan that
 * scans whole partitions or every earlier difference would pay for.
 *
 * BENCH_RECON_EXPLAIN=1 first runs the day's statement under `EXPLAIN (ANALYZE, BUFFERS)` in a transaction that is
 * rolled back, and prints the plan. The business day is BENCH_RECON_DAY (default: yesterday in Jakarta).
 *
 * The database is BENCH_RECON_DATABASE_URL, or DATABASE_URL's server with the database qris_bench_recon; its name
 * must contain "recon": it is dropped and created at the start, and dropped at the end unless BENCH_RECON_KEEP=1.
 * Progress goes to stderr; the plan and a one-line JSON summary (last line) to stdout. A benchmark, not a test.
 */

const JAKARTA = new ZonedCalendar('Asia/Jakarta');
const SETTINGS = {
  outlets: envInt('BENCH_RECON_OUTLETS', 100_000),
  chunk: envInt('BENCH_RECON_CHUNK', 25_000),
  /** Business days loaded, ending with `day`; the ones before it are reconciled (untimed) before it is. */
  days: Math.max(1, envInt('BENCH_RECON_DAYS', 1)),
  runs: Math.max(1, envInt('BENCH_RECON_RUNS', 1)),
  day: process.env.BENCH_RECON_DAY ?? addDays(JAKARTA.dateOf(new Date()), -1),
  explain: process.env.BENCH_RECON_EXPLAIN === '1',
  keep: process.env.BENCH_RECON_KEEP === '1',
};

/** Ids 019c<kind>…-7…-8… (UUIDv7-shaped; bench:scale's are 019b…, the demo data's 019a…), NMIDs ID6<outlet, 10 digits>. */
const KIND = { merchant: 1, outlet: 2, terminal: 3, transaction: 4, event: 5, settlement: 6, order: 7, bill: 8, unmatched: 9 };

const FUNCTIONS_SQL = `
create schema if not exists bench_recon;
create or replace function bench_recon.uid(kind int, n bigint) returns uuid language sql immutable as
  $$ select ('019c' || lpad(to_hex(kind), 4, '0') || '00007000' || '8' || lpad(to_hex(n), 15, '0'))::uuid $$;
create or replace function bench_recon.nmid(o bigint) returns text language sql immutable as
  $$ select 'ID6' || lpad(o::text, 10, '0') $$;
create or replace function bench_recon.bank_code(o bigint) returns text language sql immutable as
  $$ select 'RCN' || lpad((1 + o % 19)::text, 2, '0') $$;
`;

/**
 * The payments of outlets [$1, $2) on day $3, one row per payment t = 4 × s + j, with what the statements below derive
 * from it; a temporary table, so the settlements, transactions and events agree. s = $4 + o numbers the outlet-day
 * (the ids of a day's rows; $4 is the day's place × the outlets), o the outlet (its ids). Two outlets per merchant. Payment j is at 08:00 + 3 h × j + a few seconds to 3 h (Jakarta). Outlet numbers pick the differences:
 * o % 50 = 7 has no settlement; o % 200 = 17 a settlement that settles none of its payments; o % 40 = 5 leaves payment
 * 3 unsettled; o % 97 = 3 a bank fee that differs on payment 0; o % 10 = 3 a dynamic QRIS (bill number) on payment 0;
 * o % 150 = 31 payment 3 with an unknown bill number.
 */
const PLAN_TABLE_SQL = `create temp table plan_tx (t bigint, s bigint, o bigint, j int, m bigint, at timestamptz, status text, gross bigint,
  fee bigint, bank_fee bigint, ref text, settled boolean) on commit drop`;
const PLAN_SQL = `
insert into plan_tx
select t, s, o, j, o / 2 as m, at, status, gross, fee,
       fee + case when o % 97 = 3 and j = 0 then 100 else 0 end as bank_fee,
       case when o % 10 = 3 and j = 0 then 'BILL-S' || s when o % 150 = 31 and j = 3 then 'BILL-U' || s else 'REF-R' || t end as ref,
       status = 'success' and o % 50 <> 7 and o % 200 <> 17 and not (o % 40 = 5 and j = 3) as settled
  from (select ($4::bigint + o) * 4 + j as t, $4::bigint + o as s, o, j,
               ($3::date + interval '8 hours' + j * interval '3 hours' + (1 + (o * 37 + j * 911) % 10790) * interval '1 second')
                 at time zone 'Asia/Jakarta' as at,
               case when (o * 4 + j + $4::bigint) % 53 = 0 then 'failed' else 'success' end as status,
               10000 + ((o * 4 + j + $4::bigint) * 977 % 200) * 500 as gross,
               round((10000 + ((o * 4 + j + $4::bigint) * 977 % 200) * 500) * 0.007)::bigint as fee
          from generate_series($1::bigint, $2::bigint - 1) o, generate_series(0, 3) j) g`;

/** The statements of one chunk after PLAN_SQL, in order (payment targets: $1, $2 the outlets; the others $1 the day, where they use it). */
const LOAD_SQL: [string, string][] = [
  [
    'payment targets',
    `insert into "transaction".payment_targets (nmid, version, merchant_id, outlet_id, mid, nmid_status, nmid_bank_code, terminals)
     select bench_recon.nmid(o), 1, bench_recon.uid(${KIND.merchant}, o / 2), bench_recon.uid(${KIND.outlet}, o), null, 'active',
            bench_recon.bank_code(o), jsonb_build_array(jsonb_build_object('id', bench_recon.uid(${KIND.terminal}, o), 'tid', 'TR' || lpad(o::text, 10, '0')))
       from generate_series($1::bigint, $2::bigint - 1) o`,
  ],
  [
    // Received the next morning; o % 80 = 19 two days late. Its gross: what it settles, 1,000 more when o % 60 = 11;
    // its MDR: their fees, 50 more when o % 70 = 13.
    'settlements',
    `insert into "transaction".settlements (id, bank_code, external_event_id, settlement_id, nmid, merchant_id, outlet_id, gross_amount,
         mdr_total, net_amount, settlement_date, completed_at, payload, status, error_code, matched_count, matched_amount, received_at)
     select bench_recon.uid(${KIND.settlement}, p.s), bench_recon.bank_code(p.o), 'EVT-SETL-R' || p.s, 'SETL-R' || p.s, bench_recon.nmid(p.o),
            bench_recon.uid(${KIND.merchant}, p.o / 2), bench_recon.uid(${KIND.outlet}, p.o), a.gross, a.mdr, a.gross - a.mdr, $1::date,
            r.received_at - interval '1 hour', '{"synthetic": true}'::jsonb, 'success', null, p.n, p.amount, r.received_at
       from (select o, s, count(*) filter (where settled) as n, coalesce(sum(gross) filter (where settled), 0) as amount,
                    coalesce(sum(fee) filter (where settled), 0) as fee
               from plan_tx where o % 50 <> 7 group by o, s) p,
            lateral (select case when p.o % 200 = 17 then 75000 else p.amount + case when p.o % 60 = 11 then 1000 else 0 end end as gross,
                            case when p.o % 200 = 17 then 525 else p.fee + case when p.o % 70 = 13 then 50 else 0 end end as mdr) a,
            lateral (select ($1::date + case when p.o % 80 = 19 then interval '2 days 10 hours' else interval '1 day 3 hours' end)
                              at time zone 'Asia/Jakarta' as received_at) r`,
  ],
  [
    'transactions',
    `insert into "transaction".transactions (id, merchant_id, outlet_id, terminal_id, transaction_code, status, gross_amount,
         transaction_at, created_at, updated_at, bank_code, nmid, external_reference, rrn, payer_bank_code, payer_bank_name,
         payer_name_masked, mdr_rate, mdr_fee_amount, net_amount_after_mdr, mdr_fee_bank, switching_fee, platform_fee,
         settlement_status, settled_at, settlement_ref)
     select bench_recon.uid(${KIND.transaction}, t), bench_recon.uid(${KIND.merchant}, m), bench_recon.uid(${KIND.outlet}, o),
            bench_recon.uid(${KIND.terminal}, o), 'TRX-R' || t, status, gross, at, at, at, bench_recon.bank_code(o), bench_recon.nmid(o),
            ref, lpad(t::text, 12, '0'), '014', 'BCA', 'B*** R***',
            case when status = 'success' then 0.0070 else 0 end, case when status = 'success' then fee else 0 end,
            gross - case when status = 'success' then fee else 0 end, case when status = 'success' then bank_fee else 0 end,
            case when status = 'success' then fee / 5 else 0 end, 0,
            case when settled then 'settled' else 'unsettled' end,
            case when settled then ($1::date + interval '1 day 3 hours') at time zone 'Asia/Jakarta' end,
            case when settled then bench_recon.uid(${KIND.settlement}, s) end
       from plan_tx`,
  ],
  [
    'payment events',
    `insert into "transaction".payment_events (id, bank_code, external_event_id, event_type, payload, nmid, merchant_id, outlet_id,
         multi_outlet, terminal_id, transaction_id, status, flow, error_code, applied, applied_at, received_at)
     select bench_recon.uid(${KIND.event}, t), bench_recon.bank_code(o), 'EVT-R' || t, 'transaction.' || status,
            jsonb_build_object('external_event_id', 'EVT-R' || t, 'event_type', 'transaction.' || status, 'nmid', bench_recon.nmid(o),
              'gross_amount', gross, 'transaction_code', 'TRX-R' || t, 'reference_number', ref, 'rrn', lpad(t::text, 12, '0'),
              'transaction_at', to_char(at at time zone 'Asia/Jakarta', 'YYYY-MM-DD"T"HH24:MI:SS"+07:00"'), 'payer_bank_code', '014',
              'payer_bank_name', 'BCA', 'payer_name_masked', 'B*** R***', 'mdr_fee_bank', bank_fee, 'switching_fee', fee / 5,
              'platform_fee', 0, 'status', status),
            bench_recon.nmid(o), bench_recon.uid(${KIND.merchant}, m), bench_recon.uid(${KIND.outlet}, o), false,
            bench_recon.uid(${KIND.terminal}, o), bench_recon.uid(${KIND.transaction}, t), 'success',
            case when status = 'success' then 'transaction.created' else 'transaction.failed_recorded' end, null, true,
            at + interval '2 seconds', at + interval '2 seconds'
       from plan_tx`,
  ],
  [
    // Point-of-sale order k of outlet o goes with payment k: 20 s before it, of its amount; none k = 1 when o % 5 = 0
    // (1.8 per outlet). o % 30 = 1: order 1 of another amount (no payment matches it); o % 90 = 5: order 0 cancelled
    // (not reconciled); o % 45 = 8: order 1 refunded; o % 10 = 3: order 0 paid by its bill number, o % 100 = 23 with an
    // amount 500 above the payment's.
    'point-of-sale orders',
    `insert into "transaction".reconciliation_pos_orders (sales_order_id, merchant_id, outlet_id, receipt_number, status, transacted_at,
         business_day, total_amount, qris_amount, version, updated_at)
     select bench_recon.uid(${KIND.order}, 2 * s + j), bench_recon.uid(${KIND.merchant}, m), bench_recon.uid(${KIND.outlet}, o),
            'RCP-R' || (2 * s + j), case when o % 90 = 5 and j = 0 then 'cancelled' when o % 45 = 8 and j = 1 then 'refunded' else 'completed' end,
            at - interval '20 seconds', (at at time zone 'Asia/Jakarta')::date, a.amount + 1500, a.amount, 1, now()
       from plan_tx,
            lateral (select gross + case when o % 30 = 1 and j = 1 then 7 when o % 100 = 23 and j = 0 then 500 else 0 end as amount) a
      where j < 2 and not (j = 1 and o % 5 = 0)`,
  ],
  [
    'dynamic QRIS',
    `insert into "transaction".qris_payments (id, merchant_id, outlet_id, nmid, amount, bill_number, qris_payload, sales_order_id, status,
         expires_at, paid_at, transaction_id, payment_event_id, created_at, updated_at)
     select bench_recon.uid(${KIND.bill}, s), bench_recon.uid(${KIND.merchant}, m), bench_recon.uid(${KIND.outlet}, o), bench_recon.nmid(o),
            gross + case when o % 100 = 23 then 500 else 0 end, ref, 'synthetic', bench_recon.uid(${KIND.order}, 2 * s),
            case when status = 'success' then 'paid' else 'pending' end, at + interval '10 minutes',
            case when status = 'success' then at end, case when status = 'success' then bench_recon.uid(${KIND.transaction}, t) end,
            case when status = 'success' then bench_recon.uid(${KIND.event}, t) end, at - interval '1 minute', at
       from plan_tx where o % 10 = 3 and j = 0`,
  ],
  [
    'unmatched QRIS payments',
    `insert into "transaction".qris_unmatched_payments (id, payment_event_id, transaction_id, bank_code, nmid, merchant_id, outlet_id,
         bill_number, gross_amount, reason, qris_payment_id, transaction_at, created_at)
     select bench_recon.uid(${KIND.unmatched}, s), bench_recon.uid(${KIND.event}, t), bench_recon.uid(${KIND.transaction}, t),
            bench_recon.bank_code(o), bench_recon.nmid(o), bench_recon.uid(${KIND.merchant}, m), bench_recon.uid(${KIND.outlet}, o), ref, gross,
            'unknown_bill_number', null, at, at + interval '2 seconds'
       from plan_tx where o % 150 = 31 and j = 3`,
  ],
];

const LOADED = [
  '"transaction".payment_targets',
  '"transaction".settlements',
  '"transaction".transactions',
  '"transaction".payment_events',
  '"transaction".transaction_codes',
  '"transaction".payment_event_keys',
  '"transaction".reconciliation_pos_orders',
  '"transaction".qris_payments',
  '"transaction".qris_unmatched_payments',
];

function databaseUrl(): string {
  const given = process.env.BENCH_RECON_DATABASE_URL;
  const url = given ?? (process.env.DATABASE_URL ? withDatabase(process.env.DATABASE_URL, 'qris_bench_recon') : undefined);
  if (!url) throw new Error('set BENCH_RECON_DATABASE_URL or DATABASE_URL (the server; the database qris_bench_recon is created)');
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]*recon[a-z0-9_]*$/.test(name))
    throw new Error(`the reconciliation bench's database must be named …recon…, not ${name}: it is dropped and created`);
  return url;
}

/** Outlets per transaction on a day before yesterday: 2,000 merchants, 2,000 advisory locks. */
const HISTORY_CHUNK = 4_000;

/** The business days loaded, oldest first: SETTINGS.days of them, ending with SETTINGS.day. */
const loadedDays = () => Array.from({ length: SETTINGS.days }, (_, i) => addDays(SETTINGS.day, i - SETTINGS.days + 1));

/** Outlets [0, SETTINGS.outlets) on each day, chunk by chunk, one transaction each; seconds per statement, summed. */
async function load(pg: PgClient): Promise<Record<string, number>> {
  const steps: Record<string, number> = {};
  const started = performance.now();
  await pg.query(`set work_mem = '256MB'; set synchronous_commit = off`);
  const yesterday = addDays(JAKARTA.dateOf(new Date()), -1);
  for (const [i, day] of loadedDays().entries()) {
    // Payments of a day before yesterday fire the rollup invalidation's advisory lock per merchant (its insert trigger),
    // which the server's lock table (64 × 100 slots by default, shared by every session) must hold for the transaction.
    const chunk = day < yesterday ? Math.min(SETTINGS.chunk, HISTORY_CHUNK) : SETTINGS.chunk;
    for (let a = 0; a < SETTINGS.outlets; a += chunk) {
      const b = Math.min(SETTINGS.outlets, a + chunk);
      await pg.query('begin');
      await pg.query(PLAN_TABLE_SQL);
      for (const [step, sql] of [['plan', PLAN_SQL] as [string, string], ...LOAD_SQL]) {
        if (step === 'payment targets' && i > 0) continue;
        const at = performance.now();
        const params =
          step === 'plan' ? [a, b, day, i * SETTINGS.outlets] : step === 'payment targets' ? [a, b] : sql.includes('$1') ? [day] : [];
        await pg.query(sql, params);
        steps[step] = (steps[step] ?? 0) + (performance.now() - at) / 1000;
      }
      await pg.query('commit');
      progress(
        `  ${day}: outlets ${b.toLocaleString('en')} / ${SETTINGS.outlets.toLocaleString('en')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
  }
  await pg.query('reset all');
  return steps;
}

/** The day's statement under EXPLAIN (ANALYZE, BUFFERS), rolled back, without JIT as the run: its plan. */
async function explain(pg: PgClient, settings: { staticMatchSecs: number; settlementDueSecs: number }): Promise<string> {
  const { sql, params } = wholeDayStatement(SETTINGS.day, settings);
  let n = 0;
  const native = sql.replace(/\?/g, () => `$${++n}`);
  await pg.query('begin');
  try {
    await pg.query('set local jit = off'); // as the run does (ReconciliationRepository.counts)
    const { rows } = await pg.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${native}`, params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await pg.query('rollback');
  }
}

async function main(): Promise<void> {
  const url = databaseUrl();
  const name = new URL(url).pathname.slice(1);
  const maintenance = withDatabase(url, 'postgres');
  const admin = new PgClient({ connectionString: maintenance });
  await admin.connect();
  const config = loadConfig();
  const summary: Record<string, unknown> = { settings: SETTINGS, cpus: os.cpus().length };
  let plan: string | undefined;
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    progress(`database ${name} created; migrating …`);
    await migrateAll(config, url);
    const pg = new PgClient({ connectionString: url, application_name: 'bench-reconciliation' });
    await pg.connect();
    try {
      await pg.query(FUNCTIONS_SQL);
      progress(`loading ${SETTINGS.outlets.toLocaleString('en')} outlets, ${SETTINGS.days} day(s) up to ${SETTINGS.day} …`);
      const loadStarted = performance.now();
      const steps = await load(pg);
      const loadSecs = (performance.now() - loadStarted) / 1000;
      const vacuumStarted = performance.now();
      for (const table of LOADED) await pg.query(`vacuum (analyze) ${table}`);
      const rows: Record<string, number> = {};
      for (const table of LOADED) {
        const { rows: r } = await pg.query<{ n: string }>(`select count(*)::text as n from ${table}`);
        rows[table.replaceAll('"', '')] = Number(r[0].n);
      }
      progress(
        `loaded in ${loadSecs.toFixed(0)} s, vacuum/analyze ${((performance.now() - vacuumStarted) / 1000).toFixed(0)} s: ${JSON.stringify(rows)}`,
      );
      Object.assign(summary, { loadSecs, loadSteps: steps, rows });

      for (const day of loadedDays().slice(0, -1)) {
        const result = await runReconciliation(config, url, day);
        progress(`history: ${day} reconciled in ${(result.elapsed_ms / 1000).toFixed(1)} s (${result.differences} differences)`);
      }

      if (SETTINGS.explain) {
        progress('EXPLAIN (ANALYZE, BUFFERS) of the day’s statement (rolled back) …');
        plan = await explain(pg, config.reconciliation);
        summary.explainMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
      }

      const runs = [];
      for (let i = 0; i < SETTINGS.runs; i += 1) {
        const loadBefore = os.loadavg()[0];
        progress(`run ${i + 1}: reconciliation:run --day ${SETTINGS.day} (load average ${loadBefore.toFixed(2)}) …`);
        const result = await runReconciliation(config, url, SETTINGS.day);
        const loadAfter = os.loadavg()[0];
        progress(
          `run ${i + 1}: ${(result.elapsed_ms / 1000).toFixed(1)} s, ${JSON.stringify(result)}, load average ${loadAfter.toFixed(2)}`,
        );
        runs.push({ ...result, loadAverage: [loadBefore, loadAfter] });
      }
      const { rows: byClass } = await pg.query<{ class: string; n: number }>(
        `select class, count(*)::int as n from "transaction".reconciliation_differences where business_day = $1::date group by class`,
        [SETTINGS.day],
      );
      const differences = Object.fromEntries(DIFFERENCE_CLASSES.map((c) => [c, byClass.find((r) => r.class === c)?.n ?? 0]));
      const missing = DIFFERENCE_CLASSES.filter((c) => differences[c] === 0);
      if (missing.length > 0)
        throw new Error(`no difference of class ${missing.join(', ')}: the synthetic day is meant to have every class`);
      Object.assign(summary, { runs, differences });
      progress(`differences by class: ${JSON.stringify(differences)}`);
    } finally {
      await pg.end().catch(() => undefined);
    }
  } finally {
    if (!SETTINGS.keep) await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
  if (plan) process.stdout.write(`EXPLAIN (ANALYZE, BUFFERS) — the day's statement\n${plan}\n`);
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error) => {
  progress(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
