import { Migration } from '@mikro-orm/migrations';

/**
 * The sandbox clock (docs/decisions/0015-demo-data-and-sandbox.md, "The sandbox clock"): how far a sandbox bank has
 * advanced its sandbox's time. One row per sandbox bank that advanced it; the composite foreign key
 * `(bank_id, sandbox) → banks (id, sandbox)` with `sandbox` always true means a live bank can never have one.
 */
export class Migration20261214100000_sandbox_clock extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.sandbox_clocks (
        bank_id uuid primary key,
        sandbox boolean not null default true check (sandbox),
        offset_secs bigint not null check (offset_secs >= 0),
        updated_at timestamptz not null,
        foreign key (bank_id, sandbox) references merchant.banks (id, sandbox)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table merchant.sandbox_clocks;`);
  }
}
