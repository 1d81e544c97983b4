import { Migration } from '@mikro-orm/migrations';

/**
 * Partners, their credentials and partner–merchant access (partner-api.md §1, DESIGN.md §3–§4).
 * Referral access is materialized: a trigger adds a `referral` grant whenever a merchant is written with (or
 * changed to) a referral_code that belongs to a partner; creating a partner backfills its existing referrals.
 */
export class Migration20261123100000_partners extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchant.partners (
        id uuid primary key,
        code text not null unique check (code ~ '^[A-Z0-9_-]{2,32}$'),
        name text not null check (length(name) between 1 and 200),
        referral_code text not null unique check (referral_code ~ '^[A-Z0-9_-]{3,32}$'),
        status text not null default 'active' check (status in ('active', 'suspended')),
        created_at timestamptz not null
      );
      create table merchant.partner_credentials (
        id uuid primary key,
        partner_id uuid not null references merchant.partners (id),
        name text not null check (length(name) between 1 and 100),
        credential_key text not null unique,
        auth_mode text not null check (auth_mode in ('jwt', 'hmac')),
        contract text not null check (contract in ('A', 'B')),
        scopes text[] not null default '{}',
        secret_hash text,
        secret_sealed text,
        outlets_enabled boolean not null default false,
        status text not null default 'active' check (status in ('active', 'revoked')),
        revoked_at timestamptz,
        created_at timestamptz not null,
        -- JWT mode keeps only a one-way hash; HMAC mode must read its secret back (sealed), never both
        check ((auth_mode = 'jwt' and secret_hash is not null and secret_sealed is null)
            or (auth_mode = 'hmac' and secret_sealed is not null and secret_hash is null)),
        check ((status = 'revoked') = (revoked_at is not null))
      );
      create index partner_credentials_partner_idx on merchant.partner_credentials (partner_id);
      create table merchant.partner_merchant_access (
        id uuid primary key,
        partner_id uuid not null references merchant.partners (id),
        merchant_id uuid not null references merchant.merchants (id),
        access_type text not null check (access_type in ('referral', 'consent', 'assignment')),
        granted_at timestamptz not null,
        revoked_at timestamptz
      );
      -- one live grant per (partner, merchant, type); revoked ones stay as history
      create unique index partner_merchant_access_live_uq on merchant.partner_merchant_access (partner_id, merchant_id, access_type)
        where revoked_at is null;
      create index partner_merchant_access_merchant_idx on merchant.partner_merchant_access (merchant_id) where revoked_at is null;
      create index merchants_referral_code_idx on merchant.merchants (upper(referral_code)) where referral_code is not null;

      create function merchant.grant_referral_access() returns trigger language plpgsql as $$
      begin
        if new.referral_code is not null and (tg_op = 'INSERT' or old.referral_code is distinct from new.referral_code) then
          insert into merchant.partner_merchant_access (id, partner_id, merchant_id, access_type, granted_at)
          select gen_random_uuid(), p.id, new.id, 'referral', now()
            from merchant.partners p
           where p.referral_code = upper(new.referral_code)
          on conflict (partner_id, merchant_id, access_type) where revoked_at is null do nothing;
        end if;
        return new;
      end;
      $$;
      create trigger merchants_referral_access after insert or update of referral_code on merchant.merchants
        for each row execute function merchant.grant_referral_access();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger merchants_referral_access on merchant.merchants;
      drop function merchant.grant_referral_access();
      drop index merchant.merchants_referral_code_idx;
      drop table merchant.partner_merchant_access, merchant.partner_credentials, merchant.partners;
    `);
  }
}
