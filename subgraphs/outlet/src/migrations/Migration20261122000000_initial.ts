import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table outlet.outlets (
        id uuid primary key,
        merchant_id uuid not null,
        code text not null,
        name text not null,
        nmid text unique,
        is_default boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        unique (merchant_id, code)
      );
      create index outlets_merchant_id_idx on outlet.outlets (merchant_id) where deleted_at is null;
      -- at most one live default outlet per merchant
      create unique index outlets_one_default_idx on outlet.outlets (merchant_id) where is_default and deleted_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table outlet.outlets;');
  }
}
