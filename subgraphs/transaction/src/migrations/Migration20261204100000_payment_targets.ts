import { Migration } from '@mikro-orm/migrations';

/**
 * The transaction subgraph's copy of what a bank's payment event resolves to (docs/decisions/0028-payment-event-and-settlement-intake.md),
 * kept from jobs of the two owners, each part keeping its highest version (jobs run in any order, in any number of
 * copies, and may be retried):
 * - `payment_target_merchants`: what the merchant subgraph sends of each merchant (bank, visibility, status, category);
 * - `payment_target_outlet_sets`: the version of each merchant's last applied outlet set and its live outlet count;
 * - `payment_targets`: one row per live NMID of those sets (outlet, MID, NMID status and bank, TID → terminal id),
 *   with its own version, so that an NMID moved to another merchant is kept by the newer set whichever job runs last.
 */
export class Migration20261204100000_payment_targets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table transaction.payment_target_merchants (
        merchant_id uuid primary key,
        version bigint not null,
        bank_id uuid,
        bank_code text,
        psp_visible_at timestamptz,
        status text not null,
        category_code text
      );
      create table transaction.payment_target_outlet_sets (
        merchant_id uuid primary key,
        version bigint not null,
        live_outlets integer not null
      );
      create table transaction.payment_targets (
        nmid text primary key,
        version bigint not null,
        merchant_id uuid not null,
        outlet_id uuid not null,
        mid text,
        nmid_status text not null,
        nmid_bank_code text,
        terminals jsonb not null
      );
      create index payment_targets_merchant_id_idx on transaction.payment_targets (merchant_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table transaction.payment_targets;
      drop table transaction.payment_target_outlet_sets;
      drop table transaction.payment_target_merchants;
    `);
  }
}
