import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table catalog.categories (
        id uuid primary key,
        merchant_id uuid not null,
        parent_id uuid references catalog.categories (id),
        name text not null,
        sort_order integer not null default 0,
        icon_name text,
        is_active boolean not null default true,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create index categories_merchant_idx on catalog.categories (merchant_id, sort_order, name) where deleted_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table catalog.categories;');
  }
}
