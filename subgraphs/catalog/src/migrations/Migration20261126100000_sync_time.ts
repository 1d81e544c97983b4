import { Migration } from '@mikro-orm/migrations';

const SYNCED = ['categories', 'products', 'variants', 'product_stock', 'customers'];

/**
 * POS sync by write time in epoch milliseconds (docs/decisions/0055-pos-sync.md), replacing the
 * transaction-id `sync_version` of Migration20261124300000_pos. On every insert and update of a synced table the
 * trigger stamps `updated_at` with clock_timestamp() (the time of the write, not of the transaction's start), and
 * the first such write of a transaction takes a shared transaction-level advisory lock — the "open writer mark" —
 * whose two int4 keys are ((23553 << 10) | (ms >> 32), low 32 bits of ms), ms being the epoch millisecond of that
 * first write (lib/db/sync-pull.ts SYNC_WRITER_TAG.catalog = 23553). The lock is held until the transaction ends, so
 * a pull can read in pg_locks the earliest millisecond an open writer may still commit a row in.
 */
export class Migration20261126100000_sync_time extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function catalog.stamp_sync_write() returns trigger language plpgsql as $$
      declare
        ms bigint;
      begin
        if current_setting('catalog.sync_writer', true) is distinct from 'on' then
          ms := floor(extract(epoch from clock_timestamp()) * 1000)::bigint;
          perform pg_advisory_xact_lock_shared(((23553::bigint << 10) | (ms >> 32))::int, ms::bit(32)::int);
          perform set_config('catalog.sync_writer', 'on', true);
        end if;
        new.updated_at := clock_timestamp();
        return new;
      end $$;
    `);
    for (const table of SYNCED) {
      this.addSql(`
        drop trigger ${table}_sync_version on catalog.${table};
        drop index catalog.${table}_sync_idx;
        alter table catalog.${table} drop column sync_version;
        create trigger ${table}_sync_write before insert or update on catalog.${table}
          for each row execute function catalog.stamp_sync_write();
        create index ${table}_sync_idx on catalog.${table} (merchant_id, updated_at);
      `);
    }
    this.addSql(`drop function catalog.assign_sync_version();`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create function catalog.assign_sync_version() returns trigger language plpgsql as $$
      declare
        n bigint := coalesce(nullif(current_setting('catalog.sync_ordinal', true), '')::bigint, 0) + 1;
      begin
        if n >= 1048576 then raise exception 'more than 1048575 synced rows written in one transaction'; end if;
        perform set_config('catalog.sync_ordinal', n::text, true);
        new.sync_version := (pg_current_xact_id()::text::bigint << 20) + n;
        return new;
      end $$;
    `);
    for (const table of SYNCED) {
      this.addSql(`
        drop trigger ${table}_sync_write on catalog.${table};
        drop index catalog.${table}_sync_idx;
        alter table catalog.${table} add column sync_version bigint;
        create trigger ${table}_sync_version before insert or update on catalog.${table}
          for each row execute function catalog.assign_sync_version();
        update catalog.${table} set updated_at = updated_at;
        alter table catalog.${table} alter column sync_version set not null;
        create index ${table}_sync_idx on catalog.${table} (merchant_id, sync_version);
      `);
    }
    this.addSql(`drop function catalog.stamp_sync_write();`);
  }
}
