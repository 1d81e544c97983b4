import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "transaction".transactions (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid,
        transaction_code text not null,
        status text not null check (status in ('success', 'pending', 'failed', 'cancelled', 'refunded', 'reversed')),
        gross_amount bigint not null check (gross_amount >= 0),
        transaction_at timestamptz not null,
        created_at timestamptz not null
      );
      create index transactions_merchant_time_idx on "transaction".transactions (merchant_id, transaction_at desc, id desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "transaction".transactions;');
  }
}
