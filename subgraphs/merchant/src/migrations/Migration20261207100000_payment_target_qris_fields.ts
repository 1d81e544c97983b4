import { Migration } from '@mikro-orm/migrations';

/** The profile of each given merchant, as the jobs' payload items; `scale`: with `business_scale_code`. */
const profilesOf = (scale: boolean) => `
  create or replace function merchant.merchant_profiles_of(ids uuid[]) returns setof json language sql volatile as $$
    select json_build_object(
             'merchant_id', m.id, 'version', nextval('merchant.profile_versions'), 'bank_id', m.bank_id,
             'bank_code', b.code, 'psp_visible_at', m.psp_visible_at, 'name', m.name, 'legal_name', m.legal_name,
             'status', m.status, 'category_code', m.category_code, 'category_name', m.category_name,
             'phone', m.phone, 'email', m.email, 'npwp', m.npwp, 'address_line', m.address_line,
             'address_city', m.address_city, 'address_province', m.address_province,
             'address_postal_code', m.address_postal_code, 'address_country', m.address_country,
             'kyc_status', m.kyc_status, 'kyc_verified_at', m.kyc_verified_at,
             'created_at', m.created_at, 'updated_at', m.updated_at${scale ? `, 'business_scale_code', m.business_scale_code` : ''})
      from merchant.merchants m left join merchant.banks b on b.id = m.bank_id
     where m.id = any(ids)
  $$;`;

/** The trigger function of Migration20261204100000_payment_target_merchant_jobs; `scale`: a new business scale sends too. */
const enqueue = (scale: boolean) => `
  create or replace function merchant.enqueue_merchant_profiles() returns trigger language plpgsql as $$
  declare
    ids uuid[];
    profiles json;
  begin
    if TG_OP = 'INSERT' then
      select array_agg(id) into ids from inserted;
    else
      -- Only rows whose copied columns changed (a session or referral update sends nothing).
      select array_agg(n.id) into ids
        from changed_new n join changed_old o on o.id = n.id
       where (n.bank_id, n.psp_visible_at, n.name, n.legal_name, n.status, n.category_code, n.category_name, n.phone,
              n.email, n.npwp, n.address_line, n.address_city, n.address_province, n.address_postal_code,
              n.address_country, n.kyc_status, n.kyc_verified_at, n.created_at, n.updated_at${scale ? ', n.business_scale_code' : ''})
             is distinct from
             (o.bank_id, o.psp_visible_at, o.name, o.legal_name, o.status, o.category_code, o.category_name, o.phone,
              o.email, o.npwp, o.address_line, o.address_city, o.address_province, o.address_postal_code,
              o.address_country, o.kyc_status, o.kyc_verified_at, o.created_at, o.updated_at${scale ? ', o.business_scale_code' : ''});
    end if;
    if ids is not null then
      select json_build_object('profiles', json_agg(p)) into profiles from merchant.merchant_profiles_of(ids) p;
      perform graphile_worker.add_job('merchant_profiles', profiles, max_attempts => 25);
      perform graphile_worker.add_job('payment_target_merchants', profiles, max_attempts => 25);
    end if;
    return null;
  end $$;`;

/**
 * The transaction subgraph builds an outlet's static QRIS from its copy of payment targets
 * (docs/decisions/0201-qris-payloads.md, "Scope"): the merchant's profile jobs carry its business scale (the QRIS
 * criteria) beside the name, category and address they carried, and a change of it sends the profile too. Every
 * merchant is enqueued again to fill the copies.
 */
export class Migration20261207100000_payment_target_qris_fields extends Migration {
  override async up(): Promise<void> {
    this.addSql(`${profilesOf(true)}${enqueue(true)}
      select merchant.enqueue_all_merchant_profiles();`);
  }

  override async down(): Promise<void> {
    this.addSql(`${profilesOf(false)}${enqueue(false)}`);
  }
}
