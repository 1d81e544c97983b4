import { Migration } from '@mikro-orm/migrations';

/**
 * The transaction subgraph resolves a bank's payment events from its own copy of their targets
 * (docs/decisions/0028-payment-event-and-settlement-intake.md): the merchant part of that copy travels with the same statement
 * triggers and payload as the outlet subgraph's bank view (Migration20261202100000_merchant_profile_jobs), as a second
 * job, `payment_target_merchants`, that only the transaction process works. Both copies keep the highest version.
 * `enqueue_all_merchant_profiles` enqueues every merchant for both (here, to fill the new copy; `ops bank-view:sync --all`).
 */
export class Migration20261204100000_payment_target_merchant_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function merchant.enqueue_merchant_profiles() returns trigger language plpgsql as $$
      declare
        ids uuid[];
        profiles json;
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
          select json_build_object('profiles', json_agg(p)) into profiles from merchant.merchant_profiles_of(ids) p;
          perform graphile_worker.add_job('merchant_profiles', profiles, max_attempts => 25);
          perform graphile_worker.add_job('payment_target_merchants', profiles, max_attempts => 25);
        end if;
        return null;
      end $$;

      -- Every merchant again for both copies, 1,000 per job; returns jobs.
      create or replace function merchant.enqueue_all_merchant_profiles() returns integer language sql volatile as $$
        select count(*)::integer from graphile_worker.add_jobs(array(
          select row(task, json_build_object('profiles', json_agg(p)), null, null, 25, null, null, null)::graphile_worker.job_spec
            from (select p, (row_number() over () - 1) / 1000 as chunk
                    from merchant.merchant_profiles_of(array(select id from merchant.merchants)) p) numbered
           cross join (values ('merchant_profiles'), ('payment_target_merchants')) tasks(task)
           group by task, chunk))
      $$;
      -- Fills the new copy; the outlet subgraph's gets its profiles again, with newer versions (harmless).
      select merchant.enqueue_all_merchant_profiles();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create or replace function merchant.enqueue_merchant_profiles() returns trigger language plpgsql as $$
      declare
        ids uuid[];
      begin
        if TG_OP = 'INSERT' then
          select array_agg(id) into ids from inserted;
        else
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
      create or replace function merchant.enqueue_all_merchant_profiles() returns integer language sql volatile as $$
        select count(*)::integer from graphile_worker.add_jobs(array(
          select row('merchant_profiles', json_build_object('profiles', json_agg(p)), null, null, 25, null, null, null)::graphile_worker.job_spec
            from (select p, (row_number() over () - 1) / 1000 as chunk
                    from merchant.merchant_profiles_of(array(select id from merchant.merchants)) p) numbered
           group by chunk))
      $$;
      delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier = 'payment_target_merchants';
    `);
  }
}
