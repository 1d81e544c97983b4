import { Repository } from '@lib/db/repository';
import type { ReconciliationPosOrdersPayload } from '@lib/domain/jobs/tasks';
import { type JobSpec, enqueueJobs, ensureJob } from '@lib/jobs/job-queue';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.repository';

/** An outlet and a business day (YYYY-MM-DD, Asia/Jakarta): the unit of the reconciliation. */
export interface OutletDay {
  outlet_id: string;
  business_day: string;
}

/** A point-of-sale order paid by QRIS, as the catalog subgraph's job carries it. */
export type PosOrderFact = ReconciliationPosOrdersPayload['orders'][number];

export interface RunSettings {
  /** A static QRIS payment matches an order of its amount at most this far apart, seconds. */
  staticMatchSecs: number;
  /** A settlement received later than this after its business day's end is late, seconds. */
  settlementDueSecs: number;
}

export interface RunCounts {
  outletDays: number;
  differences: number;
  dropped: number;
  cleared: number;
}

export interface ReconciliationDayRow {
  outlet_id: string;
  business_day: string;
  merchant_id: string;
  settlement_count: number;
  settlement_gross_amount: string;
  settlement_mdr_amount: string;
  settlement_net_amount: string;
  payment_count: number;
  payment_gross_amount: string;
  payment_mdr_fee_amount: string;
  settled_payment_count: number;
  settled_gross_amount: string;
  qris_order_count: number;
  qris_order_amount: string;
  matched_order_count: number;
  difference_count: number;
  /** timestamptz as text (the driver's), as every instant below. */
  reconciled_at: string;
}

export interface ReconciliationDifferenceRow {
  id: string;
  outlet_id: string;
  business_day: string;
  merchant_id: string;
  class: string;
  subject: string;
  transaction_id: string | null;
  settlement_ref: string | null;
  sales_order_id: string | null;
  expected_amount: string | null;
  reported_amount: string | null;
  detail: Record<string, unknown>;
  resolution: 'open' | 'resolved';
  note: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  first_found_at: string;
  last_found_at: string;
  cleared_at: string | null;
}

export interface AuditRow {
  difference_id: string;
  action: string;
  resolution: string;
  note: string | null;
  actor: string;
  at: string;
}

/** The batch task that reconciles outlet-days (its payload: an array of OutletDay, merged by graphile-worker per job key). */
export const RECONCILIATION_OUTLETS_TASK = 'reconciliation.outlets';

const DAY_COLUMNS = `outlet_id, to_char(business_day, 'YYYY-MM-DD') as business_day, merchant_id, settlement_count,
  settlement_gross_amount, settlement_mdr_amount, settlement_net_amount, payment_count, payment_gross_amount,
  payment_mdr_fee_amount, settled_payment_count, settled_gross_amount, qris_order_count, qris_order_amount,
  matched_order_count, difference_count, reconciled_at`;

const DIFFERENCE_COLUMNS = `id, outlet_id, to_char(business_day, 'YYYY-MM-DD') as business_day, merchant_id, class, subject,
  transaction_id, settlement_ref, sales_order_id, expected_amount, reported_amount, detail, resolution, note, resolved_at,
  resolved_by, first_found_at, last_found_at, cleared_at`;

/**
 * One round of one-to-one matching over `candidates` (sales_order_id, transaction_id, gap): `best` marks each pair that
 * is the other's closest candidate (ties broken by id); `order_taken` and `payment_taken` mark every candidate whose
 * order or payment such a pair took, so the next round's candidates are those with neither. Window functions over the
 * candidates, not an anti-join of the candidates with the round's pairs: both are CTEs, estimated at a row or so, and
 * the planner ran that anti-join as a nested loop, candidates × pairs (131 million comparisons for 10,000 outlets, 18
 * of the run's 20 s under EXPLAIN ANALYZE; docs/decisions/0242-daily-reconciliation.md, "Consequences").
 */
const mutualBest = (candidates: string) => `
  select r.*, bool_or(r.best) over (partition by r.sales_order_id) as order_taken,
         bool_or(r.best) over (partition by r.transaction_id) as payment_taken
    from (select ranked.*, by_order = 1 and by_payment = 1 as best from (
            select c.sales_order_id, c.transaction_id, c.gap,
                   row_number() over (partition by c.sales_order_id order by c.gap, c.transaction_id) as by_order,
                   row_number() over (partition by c.transaction_id order by c.gap, c.sales_order_id) as by_payment
              from ${candidates} c) ranked) r`;

/**
 * The reconciliation of a set of outlet-days in one statement (docs/decisions/0242-daily-reconciliation.md): `given`
 * names the outlet-days; every other part is a set operation over all of them at once, so a whole business day of
 * every outlet costs one statement, whatever the number of outlets. Writes each outlet-day's result and upserts the
 * differences found (by outlet, day, class and subject: an operator's resolution and note stay with the row);
 * differences no longer found are dropped, or kept as cleared when an operator touched them (their audit refers to them).
 * Every test of a row against another part is a join or an anti-join, never a correlated subquery over a CTE: a CTE has
 * no index, so such a subquery scans it once per row (quadratic over a day of 100,000 outlets). A CTE has no statistics
 * either (the planner takes a handful of rows), so a join of two CTEs may be planned as a nested loop, quadratic too:
 * an order's being paid by a dynamic QRIS is an `exists` over the table qris_payments (by its index), not an anti-join
 * with the CTE `bills` (a nested loop at 100,000 outlets: 1.7 billion comparisons); the rounds of matching are window
 * functions over one CTE (`mutualBest`); the remaining joins of CTEs are on equal keys, which the plans of
 * bench/reconciliation.ts show hashed at 10,000 and 100,000 outlets. The day's transactions are read per outlet-day by
 * the outlet's index (`day_tx`: a lateral subquery kept from being flattened by `offset 0`), so only the day's
 * partition is probed: as a hash join the planner read every partition, the whole history, for one day.
 */
const runSql = (given: string) => `
  with settings as (select ?::int as match_secs, ?::int as due_secs, now() as run_at),
  given as (${given}),
  targets as (
    select g.outlet_id, g.business_day,
           g.business_day::timestamp at time zone '${SETTLEMENT_TIME_ZONE}' as from_at,
           (g.business_day + 1)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}' as before_at
      from (select distinct outlet_id, business_day from given where outlet_id is not null) g
  ),
  day_tx as (
    select t.outlet_id, t.business_day, x.id, x.merchant_id, x.status, x.gross_amount, x.mdr_fee_amount, x.mdr_fee_bank,
           x.settlement_ref, x.external_reference, x.transaction_at
      from targets t cross join lateral (
        select x.* from "transaction".transactions x
         where x.outlet_id = t.outlet_id and x.transaction_at >= t.from_at and x.transaction_at < t.before_at offset 0) x
  ),
  pays as (select * from day_tx where status = 'success'),
  setts as (
    select t.outlet_id, t.business_day, s.id, s.settlement_id, s.gross_amount, s.mdr_total, s.net_amount, s.matched_count,
           s.matched_amount, s.received_at, t.before_at + make_interval(secs => (select due_secs from settings)) as due_at,
           coalesce(s.merchant_id, (select pt.merchant_id from "transaction".payment_targets pt where pt.outlet_id = s.outlet_id limit 1)) as merchant_id
      from targets t join "transaction".settlements s
        on s.outlet_id = t.outlet_id and s.settlement_date = t.business_day and s.status = 'success'
  ),
  settled as (
    select x.settlement_ref as id, sum(x.mdr_fee_amount) as fee from day_tx x where x.settlement_ref is not null group by x.settlement_ref
  ),
  orders as (
    select t.outlet_id, t.business_day, o.sales_order_id, o.merchant_id, o.receipt_number, o.transacted_at, o.qris_amount,
           exists (select 1 from "transaction".qris_payments q where q.sales_order_id = o.sales_order_id) as dynamic
      from targets t join "transaction".reconciliation_pos_orders o on o.outlet_id = t.outlet_id and o.business_day = t.business_day
     where o.status in ('completed', 'refunded')
  ),
  bills as (
    select o.sales_order_id, o.outlet_id, q.bill_number
      from orders o join "transaction".qris_payments q on q.sales_order_id = o.sales_order_id where o.dynamic
  ),
  dynamic_match as (
    select distinct on (b.sales_order_id) b.sales_order_id, p.id as transaction_id, p.gross_amount
      from bills b join pays p on p.outlet_id = b.outlet_id and p.external_reference = b.bill_number
     order by b.sales_order_id, p.transaction_at, p.id
  ),
  static_candidates as (
    select o.sales_order_id, p.id as transaction_id, abs(extract(epoch from p.transaction_at - o.transacted_at)) as gap
      from orders o join pays p
        on p.outlet_id = o.outlet_id and p.business_day = o.business_day and p.gross_amount = o.qris_amount
     where abs(extract(epoch from p.transaction_at - o.transacted_at)) <= (select match_secs from settings)
       and not o.dynamic
       and not exists (select 1 from "transaction".qris_payments q where q.bill_number = p.external_reference)
  ),
  first_round as (${mutualBest('static_candidates')}),
  second_round as (${mutualBest('(select * from first_round where not order_taken and not payment_taken)')}),
  matches as (
    select sales_order_id, transaction_id from dynamic_match
    union all select sales_order_id, transaction_id from first_round where best
    union all select sales_order_id, transaction_id from second_round where best
  ),
  order_state as (
    select o.*, m.transaction_id is not null as matched from orders o left join matches m on m.sales_order_id = o.sales_order_id
  ),
  order_days as (select distinct outlet_id, business_day from orders),
  found as (
    select p.outlet_id, p.business_day, p.merchant_id, 'payment_without_settlement' as class, 'transaction:' || p.id as subject,
           p.id as transaction_id, null::uuid as settlement_ref, null::uuid as sales_order_id,
           p.gross_amount as expected_amount, 0::bigint as reported_amount, jsonb_build_object('transaction_at', p.transaction_at) as detail
      from pays p where p.settlement_ref is null
    union all
    select s.outlet_id, s.business_day, s.merchant_id, 'settlement_without_payment', 'settlement:' || s.id, null, s.id, null,
           0, s.gross_amount, jsonb_build_object('settlement_id', s.settlement_id)
      from setts s where s.matched_count = 0 and s.gross_amount > 0
    union all
    select s.outlet_id, s.business_day, s.merchant_id, 'amount_mismatch', 'settlement:' || s.id, null, s.id, null,
           s.matched_amount, s.gross_amount, jsonb_build_object('settlement_id', s.settlement_id, 'matched_count', s.matched_count)
      from setts s where s.matched_count > 0 and s.matched_amount <> s.gross_amount
    union all
    select o.outlet_id, o.business_day, o.merchant_id, 'amount_mismatch', 'order:' || o.sales_order_id, d.transaction_id, null,
           o.sales_order_id, o.qris_amount, d.gross_amount, jsonb_build_object('receipt_number', o.receipt_number)
      from orders o join dynamic_match d on d.sales_order_id = o.sales_order_id where d.gross_amount <> o.qris_amount
    union all
    select s.outlet_id, s.business_day, s.merchant_id, 'fee_deviation', 'settlement:' || s.id, null, s.id, null,
           coalesce(f.fee, 0), s.mdr_total, jsonb_build_object('settlement_id', s.settlement_id)
      from setts s left join settled f on f.id = s.id where s.matched_count > 0 and s.mdr_total <> coalesce(f.fee, 0)
    union all
    select p.outlet_id, p.business_day, p.merchant_id, 'fee_deviation', 'transaction:' || p.id, p.id, null, null,
           p.mdr_fee_amount, p.mdr_fee_bank, jsonb_build_object('transaction_at', p.transaction_at)
      from pays p where p.mdr_fee_bank <> 0 and p.mdr_fee_bank <> p.mdr_fee_amount
    union all
    select o.outlet_id, o.business_day, o.merchant_id, 'qris_order_without_payment', 'order:' || o.sales_order_id, null, null,
           o.sales_order_id, o.qris_amount, 0,
           jsonb_build_object('receipt_number', o.receipt_number, 'transacted_at', o.transacted_at,
             'rule', case when o.dynamic then 'bill_number' else 'amount_time' end)
      from order_state o where not o.matched
    union all
    select p.outlet_id, p.business_day, p.merchant_id, 'unmatched_payment', 'transaction:' || p.id, p.id, null, null,
           0, p.gross_amount, jsonb_strip_nulls(jsonb_build_object('transaction_at', p.transaction_at, 'reason', u.reason, 'bill_number', u.bill_number))
      from pays p
      left join "transaction".qris_unmatched_payments u
        on u.outlet_id = p.outlet_id and u.transaction_at = p.transaction_at and u.transaction_id = p.id
      left join order_days od on od.outlet_id = p.outlet_id and od.business_day = p.business_day
     where not exists (select 1 from matches m where m.transaction_id = p.id)
       and (u.id is not null or od.outlet_id is not null)
    union all
    select s.outlet_id, s.business_day, s.merchant_id, 'late_settlement', 'settlement:' || s.id, null, s.id, null,
           null, s.gross_amount, jsonb_build_object('settlement_id', s.settlement_id, 'received_at', s.received_at, 'due_at', s.due_at)
      from setts s where s.received_at > s.due_at
  ),
  upserted as (
    insert into "transaction".reconciliation_differences as d
      (id, outlet_id, business_day, merchant_id, class, subject, transaction_id, settlement_ref, sales_order_id,
       expected_amount, reported_amount, detail, first_found_at, last_found_at)
    select gen_random_uuid(), f.outlet_id, f.business_day, f.merchant_id, f.class, f.subject, f.transaction_id, f.settlement_ref,
           f.sales_order_id, f.expected_amount, f.reported_amount, f.detail, st.run_at, st.run_at
      from found f cross join settings st
    on conflict (outlet_id, business_day, class, subject) do update
       set merchant_id = excluded.merchant_id, transaction_id = excluded.transaction_id, settlement_ref = excluded.settlement_ref,
           sales_order_id = excluded.sales_order_id, expected_amount = excluded.expected_amount,
           reported_amount = excluded.reported_amount, detail = excluded.detail, last_found_at = excluded.last_found_at, cleared_at = null
    returning 1
  ),
  gone as (
    select d.id, exists (select 1 from "transaction".reconciliation_audit a where a.difference_id = d.id) as kept
      from targets t join "transaction".reconciliation_differences d on d.outlet_id = t.outlet_id and d.business_day = t.business_day
     where not exists (select 1 from found f
                        where f.outlet_id = d.outlet_id and f.business_day = d.business_day and f.class = d.class and f.subject = d.subject)
  ),
  dropped as (
    delete from "transaction".reconciliation_differences d using gone g where d.id = g.id and not g.kept returning 1
  ),
  cleared as (
    update "transaction".reconciliation_differences d set cleared_at = coalesce(d.cleared_at, (select run_at from settings))
      from gone g where d.id = g.id and g.kept returning 1
  ),
  pay_sums as (
    select outlet_id, business_day, min(merchant_id::text)::uuid as merchant_id, count(*) as n, sum(gross_amount) as gross,
           sum(mdr_fee_amount) as fee, count(*) filter (where settlement_ref is not null) as settled_n,
           coalesce(sum(gross_amount) filter (where settlement_ref is not null), 0) as settled_gross
      from pays group by outlet_id, business_day
  ),
  settlement_sums as (
    select outlet_id, business_day, min(merchant_id::text)::uuid as merchant_id, count(*) as n, sum(gross_amount) as gross,
           sum(mdr_total) as mdr, sum(net_amount) as net
      from setts group by outlet_id, business_day
  ),
  order_sums as (
    select o.outlet_id, o.business_day, min(o.merchant_id::text)::uuid as merchant_id, count(*) as n, sum(o.qris_amount) as amount,
           count(*) filter (where o.matched) as matched
      from order_state o group by o.outlet_id, o.business_day
  ),
  found_sums as (select outlet_id, business_day, count(*) as n from found group by outlet_id, business_day),
  written as (
    insert into "transaction".reconciliation_days as r
      (outlet_id, business_day, merchant_id, settlement_count, settlement_gross_amount, settlement_mdr_amount, settlement_net_amount,
       payment_count, payment_gross_amount, payment_mdr_fee_amount, settled_payment_count, settled_gross_amount,
       qris_order_count, qris_order_amount, matched_order_count, difference_count, reconciled_at)
    select t.outlet_id, t.business_day, coalesce(p.merchant_id, s.merchant_id, o.merchant_id),
           coalesce(s.n, 0), coalesce(s.gross, 0), coalesce(s.mdr, 0), coalesce(s.net, 0),
           coalesce(p.n, 0), coalesce(p.gross, 0), coalesce(p.fee, 0), coalesce(p.settled_n, 0), coalesce(p.settled_gross, 0),
           coalesce(o.n, 0), coalesce(o.amount, 0), coalesce(o.matched, 0), coalesce(f.n, 0), (select run_at from settings)
      from targets t
      left join pay_sums p on p.outlet_id = t.outlet_id and p.business_day = t.business_day
      left join settlement_sums s on s.outlet_id = t.outlet_id and s.business_day = t.business_day
      left join order_sums o on o.outlet_id = t.outlet_id and o.business_day = t.business_day
      left join found_sums f on f.outlet_id = t.outlet_id and f.business_day = t.business_day
     where coalesce(p.merchant_id, s.merchant_id, o.merchant_id) is not null
    on conflict (outlet_id, business_day) do update
       set merchant_id = excluded.merchant_id, settlement_count = excluded.settlement_count,
           settlement_gross_amount = excluded.settlement_gross_amount, settlement_mdr_amount = excluded.settlement_mdr_amount,
           settlement_net_amount = excluded.settlement_net_amount, payment_count = excluded.payment_count,
           payment_gross_amount = excluded.payment_gross_amount, payment_mdr_fee_amount = excluded.payment_mdr_fee_amount,
           settled_payment_count = excluded.settled_payment_count, settled_gross_amount = excluded.settled_gross_amount,
           qris_order_count = excluded.qris_order_count, qris_order_amount = excluded.qris_order_amount,
           matched_order_count = excluded.matched_order_count, difference_count = excluded.difference_count,
           reconciled_at = excluded.reconciled_at
    returning r.difference_count
  )
  select (select count(*) from written)::int as outlet_days, (select coalesce(sum(difference_count), 0) from written)::int as differences,
         (select count(*) from dropped)::int as dropped, (select count(*) from cleared)::int as cleared,
         (select count(*) from upserted)::int as upserted`;

/** Outlet-days named by the caller (a job's batch). */
const GIVEN_OUTLET_DAYS = `select t.outlet_id, t.business_day from json_to_recordset(?::json) as t(outlet_id uuid, business_day date)`;

/** Every outlet with a live NMID, a settlement or a QRIS order on the day (the daily run). */
const GIVEN_WHOLE_DAY = `
  select pt.outlet_id, d.day as business_day from "transaction".payment_targets pt, (select ?::date as day) d
  union select s.outlet_id, s.settlement_date from "transaction".settlements s
         where s.settlement_date = (select ?::date) and s.outlet_id is not null and s.status = 'success'
  union select o.outlet_id, o.business_day from "transaction".reconciliation_pos_orders o where o.business_day = (select ?::date)`;

/**
 * The statement of a whole day's run (`?` placeholders) and its parameters: what `runDay` sends after the day's lock;
 * bench/reconciliation.ts explains it.
 */
export const wholeDayStatement = (day: string, settings: RunSettings): { sql: string; params: unknown[] } => ({
  sql: runSql(GIVEN_WHOLE_DAY),
  params: [settings.staticMatchSecs, settings.settlementDueSecs, day, day, day],
});

/** The reconciliation's statements: the copy of point-of-sale orders, the runs, their results and the operators' audit. */
export class ReconciliationRepository extends Repository {
  /** Reconciles the outlet-days given (one statement), after taking each day's lock (runs of one day take turns). */
  async runOutletDays(items: readonly OutletDay[], settings: RunSettings): Promise<RunCounts> {
    return this.sqlTransaction(async (tx) => {
      await tx.lockDays([...new Set(items.map((i) => i.business_day))]);
      return tx.run(GIVEN_OUTLET_DAYS, [JSON.stringify(items)], settings);
    });
  }

  /** Reconciles every outlet of `day` (one statement). */
  async runDay(day: string, settings: RunSettings): Promise<RunCounts> {
    return this.sqlTransaction(async (tx) => {
      await tx.lockDays([day]);
      const { sql, params } = wholeDayStatement(day, settings);
      return tx.counts(sql, params);
    });
  }

  private async lockDays(days: string[]): Promise<void> {
    await this.rows(`select pg_advisory_xact_lock(hashtextextended('reconciliation:' || d, 0)) from unnest(?::text[]) d order by d`, [
      days.sort(),
    ]);
  }

  private run(given: string, givenParams: unknown[], settings: RunSettings): Promise<RunCounts> {
    return this.counts(runSql(given), [settings.staticMatchSecs, settings.settlementDueSecs, ...givenParams]);
  }

  /**
   * Runs a run's statement (inside the caller's transaction) without JIT: its plan is large (some 470 functions) and
   * its cost estimate passes every JIT threshold from a few thousand outlets on, so the server compiled it, inlined and
   * optimised, each run: 8 of the 25 s of a day of 100,000 outlets, 5 of 8 s for 10,000 outlets with a month of history.
   */
  private async counts(sql: string, params: unknown[]): Promise<RunCounts> {
    await this.rows('set local jit = off');
    const [row] = await this.rows<{ outlet_days: number; differences: number; dropped: number; cleared: number }>(sql, params);
    return { outletDays: row.outlet_days, differences: row.differences, dropped: row.dropped, cleared: row.cleared };
  }

  /**
   * Keeps the newest facts of each order (highest version); answers the outlet-days already reconciled that an
   * applied order belongs to (an order that arrived after its day's run: the day is reconciled again).
   */
  async applyPosOrders(orders: readonly PosOrderFact[]): Promise<OutletDay[]> {
    return this.rows<OutletDay>(
      `with facts as (
         select distinct on (f.sales_order_id) f.*
           from json_to_recordset(?::json) as f(sales_order_id uuid, merchant_id uuid, outlet_id uuid, receipt_number text, status text,
                                                transacted_at timestamptz, total_amount bigint, qris_amount bigint, version bigint)
          order by f.sales_order_id, f.version desc
       ),
       applied as (
         insert into "transaction".reconciliation_pos_orders as o
           (sales_order_id, merchant_id, outlet_id, receipt_number, status, transacted_at, business_day, total_amount, qris_amount, version, updated_at)
         select f.sales_order_id, f.merchant_id, f.outlet_id, f.receipt_number, f.status, f.transacted_at,
                (f.transacted_at at time zone '${SETTLEMENT_TIME_ZONE}')::date, f.total_amount, f.qris_amount, f.version, now()
           from facts f
         on conflict (sales_order_id) do update
            set merchant_id = excluded.merchant_id, outlet_id = excluded.outlet_id, receipt_number = excluded.receipt_number,
                status = excluded.status, transacted_at = excluded.transacted_at, business_day = excluded.business_day,
                total_amount = excluded.total_amount, qris_amount = excluded.qris_amount, version = excluded.version, updated_at = now()
          where o.version < excluded.version
         returning o.outlet_id, o.business_day
       )
       select distinct a.outlet_id, to_char(a.business_day, 'YYYY-MM-DD') as business_day from applied a
        where exists (select 1 from "transaction".reconciliation_days d where d.outlet_id = a.outlet_id and d.business_day = a.business_day)`,
      [JSON.stringify(orders)],
    );
  }

  enqueue(jobs: readonly JobSpec[]): Promise<void> {
    return enqueueJobs(this.db, jobs);
  }

  /** The chain's next job (worker start): see lib/jobs/job-queue.ts `ensureJob`. */
  ensureJob(task: string, key: string, payload: object, runAt: Date): Promise<void> {
    return this.sqlTransaction((tx) => ensureJob(tx.db, task, key, payload, runAt));
  }

  /** A merchant's results of `day`, of the outlets given (null: all), by outlet. */
  days(merchantId: string, day: string, outletIds: readonly string[] | null): Promise<ReconciliationDayRow[]> {
    return this.rows<ReconciliationDayRow>(
      `select ${DAY_COLUMNS} from "transaction".reconciliation_days
        where merchant_id = ? and business_day = ?::date and (?::uuid[] is null or outlet_id = any(?::uuid[]))
        order by outlet_id`,
      [merchantId, day, outletIds, outletIds],
    );
  }

  /** The differences of those outlet-days, by outlet, class and subject. */
  differences(merchantId: string, day: string, outletIds: readonly string[]): Promise<ReconciliationDifferenceRow[]> {
    return this.rows<ReconciliationDifferenceRow>(
      `select ${DIFFERENCE_COLUMNS} from "transaction".reconciliation_differences
        where merchant_id = ? and business_day = ?::date and outlet_id = any(?::uuid[])
        order by outlet_id, class, subject`,
      [merchantId, day, outletIds],
    );
  }

  /**
   * A month's reconciliation of a merchant (one outlet when given): its reconciled outlet-days, and its differences
   * still standing (not cleared by a later run) by class and resolution. Business days `from` inclusive, `to` exclusive.
   */
  async monthSummary(
    merchantId: string,
    outletId: string | null,
    from: string,
    to: string,
  ): Promise<{ days: number; byClass: { class: string; resolution: string; n: number }[] }> {
    const scope = `merchant_id = ? and business_day >= ?::date and business_day < ?::date and (?::uuid is null or outlet_id = ?::uuid)`;
    const params = [merchantId, from, to, outletId, outletId];
    const [[{ days }], byClass] = await Promise.all([
      this.rows<{ days: number }>(`select count(*)::int as days from "transaction".reconciliation_days where ${scope}`, params),
      this.rows<{ class: string; resolution: string; n: number }>(
        `select class, resolution, count(*)::int as n from "transaction".reconciliation_differences
          where ${scope} and cleared_at is null group by class, resolution order by class, resolution`,
        params,
      ),
    ]);
    return { days, byClass };
  }

  /** One difference, locked for the caller's change. */
  async lockDifference(id: string): Promise<ReconciliationDifferenceRow | null> {
    const [row] = await this.rows<ReconciliationDifferenceRow>(
      `select ${DIFFERENCE_COLUMNS} from "transaction".reconciliation_differences where id = ? for update`,
      [id],
    );
    return row ?? null;
  }

  /** Records an operator's resolution and note on a difference and its audit row; the difference as changed. */
  async annotate(
    difference: ReconciliationDifferenceRow,
    change: {
      resolution: 'open' | 'resolved';
      note: string | null;
      action: 'annotated' | 'resolved' | 'reopened';
      actor: string;
      auditId: string;
    },
  ): Promise<ReconciliationDifferenceRow> {
    const [row] = await this.rows<ReconciliationDifferenceRow>(
      `with changed as (
         update "transaction".reconciliation_differences
            set resolution = ?, note = ?,
                resolved_at = case when ? = 'resolved' then coalesce(resolved_at, now()) end,
                resolved_by = case when ? = 'resolved' then coalesce(resolved_by, ?) end
          where id = ?
         returning ${DIFFERENCE_COLUMNS}
       ),
       audited as (
         insert into "transaction".reconciliation_audit (id, difference_id, merchant_id, action, resolution, note, actor, at)
         values (?, ?, ?, ?, ?, ?, ?, now())
       )
       select * from changed`,
      [
        change.resolution,
        change.note,
        change.resolution,
        change.resolution,
        change.actor,
        difference.id,
        change.auditId,
        difference.id,
        difference.merchant_id,
        change.action,
        change.resolution,
        change.note,
        change.actor,
      ],
    );
    return row;
  }

  /** The audit of a difference, oldest first. */
  audit(differenceIds: readonly string[]): Promise<AuditRow[]> {
    return this.rows(
      `select difference_id, action, resolution, note, actor, at from "transaction".reconciliation_audit
        where difference_id = any(?::uuid[]) order by at, id`,
      [differenceIds],
    );
  }
}
