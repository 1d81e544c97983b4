import { Migration } from '@mikro-orm/migrations';

/**
 * docs/decisions/0046-notifications.md: the language each message was sent in, and one row per
 * (user, business day) whose daily summary was queued — its primary key is what makes the summary exactly once per
 * user and day, whatever the number of copies, restarts or re-runs.
 */
export class Migration20261212100000_daily_summary_and_language extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table merchant.notification_messages add column language text;
      create table merchant.daily_summary_sends (
        user_id uuid not null,
        business_day date not null,
        merchant_id uuid not null,
        queued_at timestamptz not null,
        primary key (user_id, business_day)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table merchant.daily_summary_sends;
      alter table merchant.notification_messages drop column language;
    `);
  }
}
