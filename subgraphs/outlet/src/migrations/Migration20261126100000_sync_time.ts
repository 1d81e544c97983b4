import { Migration } from '@mikro-orm/migrations';

/**
 * POS sync by write time in epoch milliseconds (docs/decisions/0055-pos-sync.md), replacing the
 * transaction-id `sync_version` of Migration20261124300000_pos; the same scheme as the catalog schema's migration of
 * the same name. Every insert and update of an outlet stamps `updated_at` with clock_timestamp(), and a transaction's
 * first such write takes a shared transaction-level advisory lock keyed ((23554 << 10) | (ms >> 32), low 32 bits of
 * ms), ms being the epoch millisecond of that write (lib/db/sync-pull.ts SYNC_WRITER_TAG.outlet = 23554), held until
 * the transaction ends.
 */
export class Migration20261126100000_sync_time extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function outlet.stamp_sync_write() returns trigger language plpgsql as $$
      declare
        ms bigint;
      begin
        if current_setting('outlet.sync_writer', true) is distinct from 'on' then
          ms := floor(extract(epoch from clock_timestamp()) * 1000)::bigint;
          perform pg_advisory_xact_lock_shared(((23554::bigint << 10) | (ms >> 32))::int, ms::bit(32)::int);
          perform set_config('outlet.sync_writer', 'on', true);
        end if;
        new.updated_at := clock_timestamp();
        return new;
      end $$;

      drop trigger outlets_sync_version on outlet.outlets;
      drop index outlet.outlets_sync_idx;
      alter table outlet.outlets drop column sync_version;
      drop function outlet.assign_sync_version();
      create trigger outlets_sync_write before insert or update on outlet.outlets
        for each row execute function outlet.stamp_sync_write();
      create index outlets_sync_idx on outlet.outlets (merchant_id, updated_at);
    `);
  }

  override async down(): Promise<void> {
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

      drop trigger outlets_sync_write on outlet.outlets;
      drop index outlet.outlets_sync_idx;
      alter table outlet.outlets add column sync_version bigint;
      create trigger outlets_sync_version before insert or update on outlet.outlets
        for each row execute function outlet.assign_sync_version();
      update outlet.outlets set updated_at = updated_at;
      alter table outlet.outlets alter column sync_version set not null;
      create index outlets_sync_idx on outlet.outlets (merchant_id, sync_version);
      drop function outlet.stamp_sync_write();
    `);
  }
}
