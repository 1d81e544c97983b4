import { Migration } from '@mikro-orm/migrations';

/**
 * The live feed's wake-up at the source (docs/decisions/0202-live-payment-events.md): a statement that appends feed
 * rows NOTIFYs the channel `qris_payment_feed` (no payload: a woken REST process reads the whole feed after its
 * cursor). PostgreSQL delivers it only when the transaction commits, and folds identical notifications of one
 * transaction into one, so a batch of bank events signals once, after its rows are visible. A statement that
 * inserted nothing (a replay) sends nothing.
 */
export class Migration20261208490000_payment_feed_notify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function "transaction".notify_payment_feed() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from appended) then
          perform pg_notify('qris_payment_feed', '');
        end if;
        return null;
      end $$;

      create trigger payment_feed_notify after insert on "transaction".payment_feed
        referencing new table as appended
        for each statement execute function "transaction".notify_payment_feed();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger payment_feed_notify on "transaction".payment_feed;
      drop function "transaction".notify_payment_feed();
    `);
  }
}
