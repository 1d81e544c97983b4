import { Migration } from '@mikro-orm/migrations';

/** The partner API's outlet transactions (partner-api.md §4) read one outlet's window newest first. */
export class Migration20261124050000_outlet_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index transactions_outlet_time_idx on "transaction".transactions (outlet_id, transaction_at desc, id desc) where outlet_id is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index "transaction".transactions_outlet_time_idx;');
  }
}
