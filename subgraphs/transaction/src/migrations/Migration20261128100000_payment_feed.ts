import { Migration } from '@mikro-orm/migrations';

/**
 * The live payment feed (docs/decisions/0202-live-payment-events.md): one row per successful transaction, written in
 * the event intake's transaction (unique transaction id: exactly once per event), with a dynamic QRIS payment it
 * settled. `id` is the SSE event id: rows are appended under a transaction-level advisory lock taken last, so ids
 * are handed out in commit order and a reader that has seen id N never later meets a smaller one. The `notify_*`
 * columns are the push notifications' claim (several REST copies share the work with `for update skip locked`).
 */
export class Migration20261128100000_payment_feed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "transaction".payment_feed (
        id bigserial primary key,
        kind text not null check (kind in ('transaction.success', 'qris_payment.paid')),
        merchant_id uuid not null,
        outlet_id uuid not null,
        terminal_id uuid,
        transaction_id uuid not null unique,
        transaction_code text not null,
        reference_number text,
        bank_code text not null,
        nmid text not null,
        amount bigint not null,
        transaction_at timestamptz not null,
        qris_payment_id uuid,
        bill_number text,
        sales_order_id uuid,
        created_at timestamptz not null default now(),
        notify_attempts integer not null default 0,
        notify_claimed_until timestamptz,
        notified_at timestamptz
      );
      create index payment_feed_merchant_idx on "transaction".payment_feed (merchant_id, id);
      create index payment_feed_payment_idx on "transaction".payment_feed (qris_payment_id) where qris_payment_id is not null;
      create index payment_feed_unnotified_idx on "transaction".payment_feed (id) where notified_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "transaction".payment_feed;');
  }
}
