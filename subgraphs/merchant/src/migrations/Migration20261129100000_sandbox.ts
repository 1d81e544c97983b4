import { Migration } from '@mikro-orm/migrations';

/**
 * The sandbox (docs/decisions/0015-demo-data-and-sandbox.md): banks and partners are issued live or sandbox; a merchant is of its
 * bank's mode, and a partner reaches only merchants of its own mode. The mode is a column of the owners (banks,
 * partners, merchants) and of the one table that links two owners (partner_merchant_access); composite foreign keys
 * make a row that mixes the modes impossible, whatever code writes it. Every other table of every schema hangs off a
 * bank (bank_code, bank_id) or a merchant (merchant_id), whose scope is enforced already.
 */
export class Migration20261129100000_sandbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table merchant.banks add column sandbox boolean not null default false,
        add constraint banks_id_sandbox_uq unique (id, sandbox);
      alter table merchant.partners add column sandbox boolean not null default false,
        add constraint partners_id_sandbox_uq unique (id, sandbox);
      alter table merchant.merchants add column sandbox boolean not null default false,
        add constraint merchants_id_sandbox_uq unique (id, sandbox),
        -- a merchant is of its bank's mode; without a bank it is live
        add constraint merchants_bank_mode_fk foreign key (bank_id, sandbox) references merchant.banks (id, sandbox),
        add constraint merchants_sandbox_has_bank_ck check (bank_id is not null or not sandbox);
      -- sandbox merchants carry NMIDs of the reserved range (lib/domain/sandbox/sandbox-nmid.ts), live ones never do; not
      -- validated against existing rows, which are all live and were assigned by banks
      alter table merchant.merchants add constraint merchants_nmid_mode_ck
        check (primary_nmid is null or (primary_nmid ~ '^ID99[0-9]{13}$') = sandbox) not valid;
      alter table merchant.partner_merchant_access add column sandbox boolean not null default false,
        add constraint partner_merchant_access_partner_mode_fk foreign key (partner_id, sandbox) references merchant.partners (id, sandbox),
        add constraint partner_merchant_access_merchant_mode_fk foreign key (merchant_id, sandbox) references merchant.merchants (id, sandbox);

      -- referral grants only between a partner and a merchant of one mode
      create or replace function merchant.grant_referral_access() returns trigger language plpgsql as $$
      begin
        if new.referral_code is not null and (tg_op = 'INSERT' or old.referral_code is distinct from new.referral_code) then
          insert into merchant.partner_merchant_access (id, partner_id, merchant_id, access_type, granted_at, sandbox)
          select gen_random_uuid(), p.id, new.id, 'referral', now(), new.sandbox
            from merchant.partners p
           where p.referral_code = upper(new.referral_code) and p.sandbox = new.sandbox
          on conflict (partner_id, merchant_id, access_type) where revoked_at is null do nothing;
        end if;
        return new;
      end;
      $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create or replace function merchant.grant_referral_access() returns trigger language plpgsql as $$
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
      alter table merchant.partner_merchant_access drop column sandbox;
      alter table merchant.merchants drop constraint merchants_nmid_mode_ck, drop constraint merchants_sandbox_has_bank_ck,
        drop constraint merchants_bank_mode_fk, drop constraint merchants_id_sandbox_uq, drop column sandbox;
      alter table merchant.partners drop constraint partners_id_sandbox_uq, drop column sandbox;
      alter table merchant.banks drop constraint banks_id_sandbox_uq, drop column sandbox;
    `);
  }
}
