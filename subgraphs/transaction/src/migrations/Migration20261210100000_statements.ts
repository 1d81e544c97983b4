import { Migration } from '@mikro-orm/migrations';

/**
 * Monthly statements (docs/decisions/0242-daily-reconciliation.md): one row per merchant, outlet (null: the whole
 * merchant) and month, holding both files; a rerun replaces the row's files, never adds a second row.
 */
export class Migration20261210100000_statements extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table transaction.statements (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid,
        month date not null check (extract(day from month) = 1),
        status text not null check (status in ('pending', 'ready')),
        totals jsonb,
        pdf bytea,
        csv bytea,
        requested_at timestamptz not null default now(),
        generated_at timestamptz,
        constraint statements_merchant_outlet_month_key unique nulls not distinct (merchant_id, outlet_id, month)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table transaction.statements;`);
  }
}
