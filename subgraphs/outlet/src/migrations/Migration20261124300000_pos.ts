import { Migration } from '@mikro-orm/migrations';

/**
 * Point-of-sale view of outlets (core-api.md §2 Outlet): `is_active`, `qris_static_payload`, and the sync version
 * the device pull pages by, assigned exactly as in the catalog schema (docs/decisions/0055-pos-sync.md):
 * (top-level xid << 20) + the row's ordinal within its transaction, so versions sort by writing transaction and a
 * pull below (pg_snapshot_xmin << 20) never misses a row committed later. An outlet code is unique per merchant
 * among live outlets only, so a deleted outlet's code can be used again.
 */
export class Migration20261124300000_pos extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function outlet.assign_sync_version() returns trigger language plpgsql as $$
      declare
        n bigint := coalesce(nullif(current_setting('outlet.sync_ordinal', true), '')::bigint, 0) + 1;
      begin
        if n >= 1048576 then raise exception 'more than 1048575 synced rows written in one transaction'; end if;
        perform set_config('outlet.sync_ordinal', n::text, true);
        new.sync_version := (pg_current_xact_id()::text::bigint << 20) + n;
        return new;
      end $$;

      alter table outlet.outlets
        add column is_active boolean not null default true,
        add column qris_static_payload text,
        add column sync_version bigint;
      create trigger outlets_sync_version before insert or update on outlet.outlets
        for each row execute function outlet.assign_sync_version();
      update outlet.outlets set updated_at = updated_at;
      alter table outlet.outlets alter column sync_version set not null;
      create index outlets_sync_idx on outlet.outlets (merchant_id, sync_version);

      alter table outlet.outlets drop constraint outlets_merchant_id_code_key;
      create unique index outlets_merchant_code_live_key on outlet.outlets (merchant_id, code) where deleted_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index outlet.outlets_merchant_code_live_key;
      alter table outlet.outlets add constraint outlets_merchant_id_code_key unique (merchant_id, code);
      drop trigger outlets_sync_version on outlet.outlets;
      alter table outlet.outlets drop column is_active, drop column qris_static_payload, drop column sync_version;
      drop function outlet.assign_sync_version();
    `);
  }
}
