import { Migration } from '@mikro-orm/migrations';

/**
 * The daily reconciliation (docs/decisions/0242-daily-reconciliation.md) runs in the transaction subgraph, which owns
 * settlements, payment events and transactions; it needs the point of sale's orders paid by QRIS. They travel as jobs
 * (DESIGN.md §6): every statement that writes a sales order or one of its payments enqueues one `reconciliation.pos_orders`
 * job with the facts of each written order that has a payment of method `qris` (any case): its outlet, receipt, status,
 * `transacted_at`, total and QRIS amount, and a version drawn after the write (the order's row lock orders two writers
 * of one order, so a later version saw every earlier change). The transaction process keeps the highest version.
 * `enqueue_all_reconciliation_orders` sends every such order again (this migration; a rebuild).
 */
export class Migration20261220100000_reconciliation_orders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create sequence catalog.reconciliation_order_versions;

      -- The facts of the given orders that have a QRIS payment, as the job's payload items.
      create function catalog.reconciliation_orders_of(ids uuid[]) returns setof json language sql volatile as $$
        select json_build_object(
                 'sales_order_id', o.id, 'merchant_id', o.merchant_id, 'outlet_id', o.outlet_id,
                 'receipt_number', o.receipt_number, 'status', o.status, 'transacted_at', o.transacted_at,
                 'total_amount', o.total_amount, 'qris_amount', q.amount,
                 'version', nextval('catalog.reconciliation_order_versions'))
          from catalog.sales_orders o
          join lateral (select sum(p.amount) as amount from catalog.sales_order_payments p
                         where p.sales_order_id = o.id and lower(p.method) = 'qris') q on q.amount is not null
         where o.id = any(ids)
      $$;

      create function catalog.enqueue_reconciliation_orders() returns trigger language plpgsql as $$
      declare
        ids uuid[];
        facts json;
      begin
        if TG_TABLE_NAME = 'sales_orders' then
          select array_agg(distinct id) into ids from new_rows;
        else
          select array_agg(distinct sales_order_id) into ids from new_rows where lower(method) = 'qris';
        end if;
        if ids is null then
          return null;
        end if;
        select json_agg(f) into facts from catalog.reconciliation_orders_of(ids) f;
        if facts is not null then
          perform graphile_worker.add_job('reconciliation.pos_orders', json_build_object('orders', facts), max_attempts => 25);
        end if;
        return null;
      end $$;

      create trigger sales_orders_reconciliation_insert after insert on catalog.sales_orders
        referencing new table as new_rows for each statement execute function catalog.enqueue_reconciliation_orders();
      create trigger sales_orders_reconciliation_update after update on catalog.sales_orders
        referencing new table as new_rows for each statement execute function catalog.enqueue_reconciliation_orders();
      create trigger sales_order_payments_reconciliation_insert after insert on catalog.sales_order_payments
        referencing new table as new_rows for each statement execute function catalog.enqueue_reconciliation_orders();

      -- Every order with a QRIS payment again, 1,000 per job; returns the jobs added.
      create function catalog.enqueue_all_reconciliation_orders() returns integer language sql volatile as $$
        select count(*)::integer from graphile_worker.add_jobs(array(
          select row('reconciliation.pos_orders', json_build_object('orders', json_agg(f)), null, null, 25, null, null, null)::graphile_worker.job_spec
            from (select f, (row_number() over () - 1) / 1000 as chunk
                    from catalog.reconciliation_orders_of(array(
                      select distinct p.sales_order_id from catalog.sales_order_payments p where lower(p.method) = 'qris')) f) numbered
           group by chunk))
      $$;
      select catalog.enqueue_all_reconciliation_orders();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger sales_orders_reconciliation_insert on catalog.sales_orders;
      drop trigger sales_orders_reconciliation_update on catalog.sales_orders;
      drop trigger sales_order_payments_reconciliation_insert on catalog.sales_order_payments;
      drop function catalog.enqueue_all_reconciliation_orders();
      drop function catalog.enqueue_reconciliation_orders();
      drop function catalog.reconciliation_orders_of(uuid[]);
      drop sequence catalog.reconciliation_order_versions;
      delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier = 'reconciliation.pos_orders';
    `);
  }
}
