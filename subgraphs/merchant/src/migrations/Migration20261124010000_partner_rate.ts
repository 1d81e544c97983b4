import { Migration } from '@mikro-orm/migrations';

/** A partner credential's own request rate (partner-api.md §8: 60 per minute by default, configurable per credential). */
export class Migration20261124010000_partner_rate extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table merchant.partner_credentials add column rate_limit_per_minute integer not null default 60 check (rate_limit_per_minute between 1 and 100000);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table merchant.partner_credentials drop column rate_limit_per_minute;');
  }
}
