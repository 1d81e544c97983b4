import { Migration } from '@mikro-orm/migrations';

/**
 * The bank-facing merchant profile travels to the outlet subgraph as jobs (docs/decisions/0211-bank-view-read-model.md):
 * every statement that inserts merchants, or changes what a bank sees of them, enqueues one `merchant_profiles` job
 * with the new profiles, in its own transaction (a rollback enqueues nothing). The outlet process keeps its read
 * model `outlet.merchant_profiles` from them, so that a bank's NMID lookup and event intake are one subgraph fetch.
 *
 * Each profile carries a version from `merchant.profile_versions`, drawn while the row is locked by the change: the
 * consumer keeps the highest, whatever order jobs run in. Keys are the read model's column names (the job's format).
 * Existing merchants are enqueued once here (`enqueue_all_merchant_profiles`, also `ops bank-view:sync --all`).
 */
export class Migration20261202100000_merchant_profile_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create sequence merchant.profile_versions;

      -- The profile of each given merchant, as the job's payload items (one version each).
      create function merchant.merchant_profiles_of(ids uuid[]) returns setof json language sql volatile as $$
        select json_build_object(
                 'merchant_id', m.id, 'version', nextval('merchant.profile_versions'), 'bank_id', m.bank_id,
                 'bank_code', b.code, 'psp_visible_at', m.psp_visible_at, 'name', m.name, 'legal_name', m.legal_name,
                 'status', m.status, 'category_code', m.category_code, 'category_name', m.category_name,
                 'phone', m.phone, 'email', m.email, 'npwp', m.npwp, 'address_line', m.address_line,
                 'address_city', m.address_city, 'address_province', m.address_province,
                 'address_postal_code', m.address_postal_code, 'address_country', m.address_country,
                 'kyc_status', m.kyc_status, 'kyc_verified_at', m.kyc_verified_at,
                 'created_at', m.created_at, 'updated_at', m.updated_at)
          from merchant.merchants m left join merchant.banks b on b.id = m.bank_id
         where m.id = any(ids)
      $$;

      create function merchant.enqueue_merchant_profiles() returns trigger language plpgsql as $$
      declare
        ids uuid[];
      begin
        if TG_OP = 'INSERT' then
          select array_agg(id) into ids from inserted;
        else
          -- Only rows whose bank-facing columns changed (a session or referral update sends nothing).
          select array_agg(n.id) into ids
            from changed_new n join changed_old o on o.id = n.id
           where (n.bank_id, n.psp_visible_at, n.name, n.legal_name, n.status, n.category_code, n.category_name, n.phone,
                  n.email, n.npwp, n.address_line, n.address_city, n.address_province, n.address_postal_code,
                  n.address_country, n.kyc_status, n.kyc_verified_at, n.created_at, n.updated_at)
                 is distinct from
                 (o.bank_id, o.psp_visible_at, o.name, o.legal_name, o.status, o.category_code, o.category_name, o.phone,
                  o.email, o.npwp, o.address_line, o.address_city, o.address_province, o.address_postal_code,
                  o.address_country, o.kyc_status, o.kyc_verified_at, o.created_at, o.updated_at);
        end if;
        if ids is not null then
          perform graphile_worker.add_job('merchant_profiles',
            json_build_object('profiles', (select json_agg(p) from merchant.merchant_profiles_of(ids) p)), max_attempts => 25);
        end if;
        return null;
      end $$;

      create trigger merchants_profile_insert after insert on merchant.merchants
        referencing new table as inserted for each statement execute function merchant.enqueue_merchant_profiles();
      create trigger merchants_profile_update after update on merchant.merchants
        referencing new table as changed_new old table as changed_old
        for each statement execute function merchant.enqueue_merchant_profiles();

      -- Every merchant again, 1,000 per job (this migration; \`ops bank-view:sync --all\` rebuilds the copy); returns jobs.
      create function merchant.enqueue_all_merchant_profiles() returns integer language sql volatile as $$
        select count(*)::integer from graphile_worker.add_jobs(array(
          select row('merchant_profiles', json_build_object('profiles', json_agg(p)), null, null, 25, null, null, null)::graphile_worker.job_spec
            from (select p, (row_number() over () - 1) / 1000 as chunk
                    from merchant.merchant_profiles_of(array(select id from merchant.merchants)) p) numbered
           group by chunk))
      $$;
      select merchant.enqueue_all_merchant_profiles();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger merchants_profile_update on merchant.merchants;
      drop trigger merchants_profile_insert on merchant.merchants;
      drop function merchant.enqueue_all_merchant_profiles();
      drop function merchant.enqueue_merchant_profiles();
      drop function merchant.merchant_profiles_of(uuid[]);
      drop sequence merchant.profile_versions;
      delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier = 'merchant_profiles';
    `);
  }
}
