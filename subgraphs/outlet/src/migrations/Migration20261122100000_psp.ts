import { Migration } from '@mikro-orm/migrations';

/** NMID assignment (issuing bank, status, MID), outlet address and phone; terminals (devices) of outlets. */
export class Migration20261122100000_psp extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table outlet.outlets
        add column mid text constraint outlets_mid_key unique,
        add column nmid_status text not null default 'active' constraint outlets_nmid_status_check check (nmid_status in ('active', 'suspended')),
        add column nmid_bank_code text constraint outlets_nmid_bank_code_check check (nmid_bank_code ~ '^[A-Z0-9]{2,12}$'),
        add column nmid_assigned_at timestamptz,
        add column address_line text,
        add column city text,
        add column province text,
        add column postal_code text,
        add column phone text,
        -- QRIS NMIDs are "ID" followed by digits; a null NMID (not yet assigned) passes
        add constraint outlets_nmid_format_check check (nmid ~ '^ID[0-9]{10,15}$'),
        -- lets terminals reference (outlet, merchant) so a terminal can never name another merchant than its outlet's
        add constraint outlets_id_merchant_key unique (id, merchant_id);
      -- NMIDs assigned before this migration: their assignment time is the best estimate we have
      update outlet.outlets set nmid_assigned_at = created_at where nmid is not null;

      create table outlet.terminals (
        id uuid primary key,
        merchant_id uuid not null,
        outlet_id uuid not null references outlet.outlets (id),
        tid text constraint terminals_tid_key unique,
        serial_number text,
        model text,
        firmware_version text,
        status text not null constraint terminals_status_check check (status in ('online', 'offline', 'inactive')),
        last_seen_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint terminals_outlet_merchant_fkey foreign key (outlet_id, merchant_id) references outlet.outlets (id, merchant_id)
      );
      create index terminals_outlet_id_idx on outlet.terminals (outlet_id);
      create index terminals_merchant_id_idx on outlet.terminals (merchant_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table outlet.terminals;
      alter table outlet.outlets
        drop constraint outlets_id_merchant_key,
        drop constraint outlets_nmid_format_check,
        drop column mid, drop column nmid_status, drop column nmid_bank_code, drop column nmid_assigned_at,
        drop column address_line, drop column city, drop column province, drop column postal_code, drop column phone;
    `);
  }
}
