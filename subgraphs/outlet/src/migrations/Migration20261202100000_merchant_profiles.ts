import { Migration } from '@mikro-orm/migrations';

/**
 * The outlet subgraph's read model of what a bank sees of a merchant (docs/decisions/0211-bank-view-read-model.md),
 * kept from the merchant subgraph's `merchant_profiles` jobs: one row per merchant, the highest version wins. It lets
 * a bank's NMID lookup and event intake be answered by this subgraph alone (`pspOutletByNmid`, `@provides`).
 *
 * A change of status NOTIFYs `merchant:<id>` on `qris_invalidate` when it reaches this copy too: a bank lookup
 * answered from the former copy in between is dropped from the REST caches (lib/events/cache-invalidation.ts).
 */
export class Migration20261202100000_merchant_profiles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table outlet.merchant_profiles (
        merchant_id uuid primary key,
        version bigint not null,
        bank_id uuid,
        bank_code text,
        psp_visible_at timestamptz,
        name text not null,
        legal_name text,
        status text not null,
        category_code text,
        category_name text,
        phone text,
        email text,
        npwp text,
        address_line text,
        address_city text,
        address_province text,
        address_postal_code text,
        address_country text not null,
        kyc_status text not null,
        kyc_verified_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );

      create function outlet.notify_merchant_status() returns trigger language plpgsql as $$
      begin
        perform pg_notify('qris_invalidate', 'merchant:' || new.merchant_id);
        return null;
      end $$;
      create trigger merchant_profiles_invalidate after update of status on outlet.merchant_profiles
        for each row when (old.status is distinct from new.status)
        execute function outlet.notify_merchant_status();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table outlet.merchant_profiles;
      drop function outlet.notify_merchant_status();
    `);
  }
}
