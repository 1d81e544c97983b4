import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 17, the rest (docs/decisions/0201-qris-payloads.md, 0202-live-payment-events.md):
 * - `sales_order_settlements`: the outbox of "this dynamic QRIS payment, linked to a sales order, was paid", written in
 *   the bank event intake's transaction with the match, claimed by the REST process's settlement dispatcher, which
 *   has the catalog subgraph mark the order paid (idempotent there) and writes back its outcome here.
 * - Cancellation of a pending payment (`cancelled_at`), which appends a `qris_payment.cancelled` row to the feed (no
 *   transaction: those columns become nullable for that kind only), so open per-payment streams hear of it.
 * - At most one live pending payment per sales order is checked under an advisory lock, by this index.
 */
export class Migration20261129300000_qris_orders_cancel extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "transaction".qris_payments add column cancelled_at timestamptz;
      create index qris_payments_sales_order_idx on "transaction".qris_payments (sales_order_id) where sales_order_id is not null;

      create table "transaction".sales_order_settlements (
        id bigserial primary key,
        qris_payment_id uuid not null unique,
        merchant_id uuid not null,
        outlet_id uuid not null,
        sales_order_id uuid not null,
        amount bigint not null,
        transaction_id uuid not null,
        paid_at timestamptz not null,
        created_at timestamptz not null default now(),
        attempts integer not null default 0,
        claimed_until timestamptz,
        settled_at timestamptz,
        outcome text
      );
      create index sales_order_settlements_due_idx on "transaction".sales_order_settlements (id) where settled_at is null;

      alter table "transaction".payment_feed drop constraint payment_feed_kind_check;
      alter table "transaction".payment_feed
        add constraint payment_feed_kind_check check (kind in ('transaction.success', 'qris_payment.paid', 'qris_payment.cancelled')),
        alter column transaction_id drop not null,
        alter column transaction_code drop not null,
        alter column bank_code drop not null,
        alter column transaction_at drop not null,
        add constraint payment_feed_transaction_check check ((kind = 'qris_payment.cancelled') = (transaction_id is null));
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      delete from "transaction".payment_feed where kind = 'qris_payment.cancelled';
      alter table "transaction".payment_feed drop constraint payment_feed_transaction_check, drop constraint payment_feed_kind_check;
      alter table "transaction".payment_feed
        add constraint payment_feed_kind_check check (kind in ('transaction.success', 'qris_payment.paid')),
        alter column transaction_id set not null,
        alter column transaction_code set not null,
        alter column bank_code set not null,
        alter column transaction_at set not null;
      drop table "transaction".sales_order_settlements;
      drop index "transaction".qris_payments_sales_order_idx;
      alter table "transaction".qris_payments drop column cancelled_at;
    `);
  }
}
