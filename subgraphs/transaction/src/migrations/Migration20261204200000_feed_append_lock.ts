import { Migration } from '@mikro-orm/migrations';

/**
 * The payment feed hands out ids in commit order (docs/decisions/0202-live-payment-events.md): an insert takes a
 * transaction-level advisory lock, held until the commit, before any of its rows gets an id. A statement trigger now
 * takes it, in the insert itself, instead of a statement of its own sent just before: one round trip fewer inside the
 * only serial section of event intake (docs/benchmarks.md, "Sixth round"), and any writer of the feed takes it.
 */
export class Migration20261204200000_feed_append_lock extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function "transaction".lock_payment_feed_append() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(hashtext('transaction.payment_feed'));
        return null;
      end $$;
      create trigger payment_feed_append_lock before insert on "transaction".payment_feed
        for each statement execute function "transaction".lock_payment_feed_append();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger payment_feed_append_lock on "transaction".payment_feed;
      drop function "transaction".lock_payment_feed_append();
    `);
  }
}
