import { Migration } from '@mikro-orm/migrations';

/**
 * The daily three-way reconciliation per outlet and business day (docs/decisions/0242-daily-reconciliation.md):
 * - `reconciliation_pos_orders`: the point of sale's orders paid by QRIS, kept from the catalog subgraph's
 *   `reconciliation.pos_orders` jobs (highest version wins);
 * - `reconciliation_days`: one result per outlet and business day (Asia/Jakarta, as settlements), replaced by every run;
 * - `reconciliation_differences`: each difference found, unique per outlet, day, class and subject, so a re-run finds
 *   the same row again and its resolution and note survive; `reconciliation_audit`: operators' resolutions and notes;
 * - every statement that applies settlements enqueues the outlet-days they settle into one `reconciliation.outlets`
 *   batch job per day and shard (graphile-worker merges the array payloads of a pending job with the same key), run
 *   two seconds after the first arrival, so a burst of settlements is reconciled in a few set-based statements rather
 *   than one per settlement.
 */
export class Migration20261220100000_reconciliation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "transaction".reconciliation_pos_orders (
        sales_order_id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null,
        receipt_number text not null,
        status text not null,
        transacted_at timestamptz not null,
        business_day date not null,
        total_amount bigint not null,
        qris_amount bigint not null,
        version bigint not null,
        updated_at timestamptz not null
      );
      create index reconciliation_pos_orders_day_idx on "transaction".reconciliation_pos_orders (business_day, outlet_id);

      create table "transaction".reconciliation_days (
        outlet_id uuid not null,
        business_day date not null,
        merchant_id uuid not null,
        settlement_count integer not null,
        settlement_gross_amount bigint not null,
        settlement_mdr_amount bigint not null,
        settlement_net_amount bigint not null,
        payment_count integer not null,
        payment_gross_amount bigint not null,
        payment_mdr_fee_amount bigint not null,
        settled_payment_count integer not null,
        settled_gross_amount bigint not null,
        qris_order_count integer not null,
        qris_order_amount bigint not null,
        matched_order_count integer not null,
        difference_count integer not null,
        reconciled_at timestamptz not null,
        primary key (outlet_id, business_day)
      );
      create index reconciliation_days_merchant_idx on "transaction".reconciliation_days (merchant_id, business_day);

      create table "transaction".reconciliation_differences (
        id uuid primary key,
        outlet_id uuid not null,
        business_day date not null,
        merchant_id uuid not null,
        class text not null check (class in ('payment_without_settlement', 'settlement_without_payment', 'amount_mismatch',
          'fee_deviation', 'qris_order_without_payment', 'unmatched_payment', 'late_settlement')),
        subject text not null,
        transaction_id uuid,
        settlement_ref uuid,
        sales_order_id uuid,
        expected_amount bigint,
        reported_amount bigint,
        detail jsonb not null,
        resolution text not null default 'open' check (resolution in ('open', 'resolved')),
        note text,
        resolved_at timestamptz,
        resolved_by text,
        first_found_at timestamptz not null,
        last_found_at timestamptz not null,
        cleared_at timestamptz,
        constraint reconciliation_differences_key unique (outlet_id, business_day, class, subject)
      );
      create index reconciliation_differences_merchant_idx on "transaction".reconciliation_differences (merchant_id, business_day);

      create table "transaction".reconciliation_audit (
        id uuid primary key,
        difference_id uuid not null references "transaction".reconciliation_differences (id),
        merchant_id uuid not null,
        action text not null check (action in ('annotated', 'resolved', 'reopened')),
        resolution text not null,
        note text,
        actor text not null,
        at timestamptz not null
      );
      create index reconciliation_audit_difference_idx on "transaction".reconciliation_audit (difference_id, at);

      create index settlements_day_outlet_idx on "transaction".settlements (settlement_date, outlet_id) where outlet_id is not null;
      create index qris_unmatched_outlet_time_idx on "transaction".qris_unmatched_payments (outlet_id, transaction_at);

      create function "transaction".enqueue_reconciliation() returns trigger language plpgsql as $$
      begin
        perform graphile_worker.add_job('reconciliation.outlets', json_agg(json_build_object('outlet_id', t.outlet_id, 'business_day', t.day)),
                  run_at => now() + interval '2 seconds',
                  job_key => 'reconciliation.outlets:' || t.day || ':' || t.shard, job_key_mode => 'preserve_run_at', max_attempts => 25)
          from (select distinct outlet_id, to_char(settlement_date, 'YYYY-MM-DD') as day, abs(hashtext(outlet_id::text)) % 4 as shard
                  from new_rows where status = 'success' and outlet_id is not null) t
         group by t.day, t.shard;
        return null;
      end $$;
      create trigger settlements_reconciliation_update after update on "transaction".settlements
        referencing new table as new_rows for each statement execute function "transaction".enqueue_reconciliation();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger settlements_reconciliation_update on "transaction".settlements;
      drop function "transaction".enqueue_reconciliation();
      drop index "transaction".qris_unmatched_outlet_time_idx;
      drop index "transaction".settlements_day_outlet_idx;
      drop table "transaction".reconciliation_audit, "transaction".reconciliation_differences, "transaction".reconciliation_days,
        "transaction".reconciliation_pos_orders;
      delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier in ('reconciliation.outlets', 'reconciliation.pos_orders', 'reconciliation.plan');
    `);
  }
}
