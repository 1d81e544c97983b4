import { Migration } from '@mikro-orm/migrations';

/**
 * The payment-terminal view of the core app (core-api.md §2): device details of terminals, PSP pairings of a
 * merchant's devices (soft-deleted) and the device activity log; lookups the transaction-status receiver needs.
 */
export class Migration20261124200000_terminal_details extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table outlet.terminals
        add column brand_name text,
        add column device_type_name text,
        add column placement_name text;
      -- the transaction-status receiver resolves a gateway's terminalId by TID (unique) or device serial number
      create index terminals_merchant_serial_idx on outlet.terminals (merchant_id, serial_number) where serial_number is not null;

      create table outlet.psp_pairings (
        id uuid primary key,
        merchant_id uuid not null,
        terminal_id uuid references outlet.terminals (id),
        psp_code text not null check (psp_code ~ '^[A-Z0-9_-]{2,32}$'),
        psp_name text not null,
        kode_kartu text,
        nama_kartu text,
        psp_mid text,
        psp_tid text,
        pairing_status text not null check (pairing_status in ('active', 'inactive')),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );
      create index psp_pairings_merchant_idx on outlet.psp_pairings (merchant_id, created_at) where deleted_at is null;

      create table outlet.device_activity_logs (
        id uuid primary key,
        merchant_id uuid not null,
        terminal_id uuid references outlet.terminals (id),
        event_type text not null check (event_type ~ '^[a-z][a-z0-9_.]{1,63}$'),
        event_title text not null,
        severity text not null check (severity in ('info', 'warning', 'critical')),
        occurred_at timestamptz not null,
        created_at timestamptz not null
      );
      create index device_activity_logs_merchant_time_idx on outlet.device_activity_logs (merchant_id, occurred_at desc, id desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table outlet.device_activity_logs, outlet.psp_pairings;
      drop index outlet.terminals_merchant_serial_idx;
      alter table outlet.terminals drop column brand_name, drop column device_type_name, drop column placement_name;
    `);
  }
}
