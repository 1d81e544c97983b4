import { Migration } from '@mikro-orm/migrations';

/** Banks (PSPs) and their HMAC credentials; the merchant fields banks see; bank-scoped lookup indexes. */
export class Migration20261122100000_psp extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.banks (
        id uuid primary key,
        code text not null unique check (code ~ '^[A-Z0-9]{2,12}$'),
        name text not null,
        tier text not null check (tier in ('tier1', 'external')),
        created_at timestamptz not null
      );
      create table merchant.bank_credentials (
        id uuid primary key,
        bank_id uuid not null references merchant.banks (id),
        purpose text not null check (purpose in ('lookup', 'event')),
        key_id text not null unique,
        secret_sealed text not null,
        status text not null default 'active' check (status in ('active', 'revoked')),
        created_at timestamptz not null,
        revoked_at timestamptz
      );
      create index bank_credentials_bank_idx on merchant.bank_credentials (bank_id);

      alter table merchant.merchants
        add column legal_name text,
        add column category_code text check (category_code ~ '^[0-9]{4}$'),
        add column category_name text,
        add column phone text check (phone ~ '^\\+62[0-9]{8,13}$'),
        add column email text,
        add column npwp text check (npwp ~ '^[0-9]{15,16}$'),
        add column address_line text,
        add column address_city text,
        add column address_province text,
        add column address_postal_code text,
        add column address_country text not null default 'ID',
        add column kyc_status text not null default 'pending' check (kyc_status in ('pending', 'verified', 'expired', 'rejected')),
        add column kyc_verified_at timestamptz,
        add column bank_id uuid references merchant.banks (id),
        add column referral_code text,
        add column psp_visible_at timestamptz;
      -- a bank's list: its active merchants, keyset-paged by id (UUIDv7, so creation order)
      create index merchants_bank_active_idx on merchant.merchants (bank_id, id) where status = 'active' and psp_visible_at is not null;
      create index merchants_bank_phone_idx on merchant.merchants (bank_id, phone);
      create index merchants_bank_email_idx on merchant.merchants (bank_id, lower(email));
      create index merchants_bank_npwp_idx on merchant.merchants (bank_id, npwp);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table merchant.merchants
        drop column legal_name, drop column category_code, drop column category_name, drop column phone, drop column email,
        drop column npwp, drop column address_line, drop column address_city, drop column address_province,
        drop column address_postal_code, drop column address_country, drop column kyc_status, drop column kyc_verified_at,
        drop column bank_id, drop column referral_code, drop column psp_visible_at;
      drop table merchant.bank_credentials, merchant.banks;
    `);
  }
}
