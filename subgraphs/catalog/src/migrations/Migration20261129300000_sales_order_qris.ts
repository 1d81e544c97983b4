import { Migration } from '@mikro-orm/migrations';

/**
 * Sales orders paid by dynamic QRIS (docs/decisions/0201-qris-payloads.md "Sales orders"):
 * - an `open` order (pushed by a device before it is paid) has paid_amount < total_amount and no change; completed
 *   and refunded ones are paid in full; a voided one may have been either;
 * - `qris_settlements`: one row per QRIS payment the transaction subgraph reported paid for an order (primary key: the
 *   payment), with what it did to the order — the idempotency of the settlement and its record when the order could
 *   not take it (voided, already paid, …); the payment row it added carries the QRIS payment and transaction;
 * - sales orders join the device sync (`stamp_sync_write`, docs/decisions/0055-pos-sync.md), so
 *   an order paid on the server reaches the devices' pull.
 */
export class Migration20261129300000_sales_order_qris extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table catalog.sales_orders drop constraint sales_orders_change_check;
      alter table catalog.sales_orders add constraint sales_orders_change_check check (
        change_amount = greatest(paid_amount - total_amount, 0)
        and (status <> 'open' or paid_amount < total_amount)
        and (status not in ('completed', 'refunded') or paid_amount >= total_amount));

      alter table catalog.sales_order_payments add column qris_payment_id uuid, add column transaction_id uuid;
      create unique index sales_order_payments_qris_key on catalog.sales_order_payments (qris_payment_id) where qris_payment_id is not null;

      create table catalog.qris_settlements (
        qris_payment_id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null,
        sales_order_id uuid not null,
        amount bigint not null,
        transaction_id uuid not null,
        paid_at timestamptz not null,
        outcome text not null constraint qris_settlements_outcome_check check (outcome in
          ('applied', 'order_not_found', 'other_outlet', 'order_voided', 'order_refunded', 'order_already_paid', 'amount_mismatch')),
        order_status text,
        created_at timestamptz not null
      );
      create index qris_settlements_unapplied_idx on catalog.qris_settlements (merchant_id, created_at) where outcome <> 'applied';

      create trigger sales_orders_sync_write before insert or update on catalog.sales_orders
        for each row execute function catalog.stamp_sync_write();
      create index sales_orders_sync_idx on catalog.sales_orders (merchant_id, updated_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index catalog.sales_orders_sync_idx;
      drop trigger sales_orders_sync_write on catalog.sales_orders;
      drop table catalog.qris_settlements;
      drop index catalog.sales_order_payments_qris_key;
      alter table catalog.sales_order_payments drop column qris_payment_id, drop column transaction_id;
      alter table catalog.sales_orders drop constraint sales_orders_change_check;
      alter table catalog.sales_orders add constraint sales_orders_change_check check (change_amount = paid_amount - total_amount and change_amount >= 0);
    `);
  }
}
