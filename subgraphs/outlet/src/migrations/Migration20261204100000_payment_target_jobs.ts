import { Migration } from '@mikro-orm/migrations';

/**
 * What a bank's payment event resolves to travels to the transaction subgraph as jobs
 * (docs/decisions/0028-payment-event-and-settlement-intake.md): every statement that changes a merchant's outlets or terminals in a
 * way an event's resolution sees (NMID, MID, NMID status and bank, liveness, TIDs) enqueues one `payment_target_outlets`
 * job with the full set of each such merchant's live NMIDs, their terminals and the merchant's live outlet count.
 *
 * Versions must order the sets by what they saw. Two transactions changing one merchant's outlet and terminal at once
 * would each compute a set without the other's change; so the trigger first takes a transaction-scoped advisory lock
 * per merchant (in id order), and only then, in a following statement (a fresh snapshot under READ COMMITTED),
 * computes the sets and draws their versions. A later set then always saw every earlier one's change and has a higher
 * version, and the consumer keeps the highest. Existing merchants are enqueued here (`enqueue_all_payment_targets`, also
 * `ops bank-view:sync --all`).
 */
export class Migration20261204100000_payment_target_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create sequence outlet.payment_target_versions;

      -- The payment targets of each given merchant, as the job's payload items (one version each).
      create function outlet.payment_targets_of(ids uuid[]) returns setof json language sql volatile as $$
        select json_build_object(
                 'merchant_id', m.id, 'version', nextval('outlet.payment_target_versions'),
                 'live_outlets', (select count(*) from outlet.outlets o where o.merchant_id = m.id and o.deleted_at is null),
                 'outlets', coalesce((
                   select json_agg(json_build_object(
                            'nmid', o.nmid, 'outlet_id', o.id, 'mid', o.mid, 'nmid_status', o.nmid_status,
                            'nmid_bank_code', o.nmid_bank_code,
                            'terminals', (select coalesce(json_object_agg(t.tid, t.id) filter (where t.tid is not null), '{}')
                                            from outlet.terminals t where t.outlet_id = o.id)))
                     from outlet.outlets o where o.merchant_id = m.id and o.deleted_at is null and o.nmid is not null), '[]'))
          from unnest(ids) m(id)
      $$;

      create function outlet.enqueue_payment_targets() returns trigger language plpgsql as $$
      declare
        ids uuid[];
      begin
        if TG_TABLE_NAME = 'outlets' then
          if TG_OP = 'INSERT' then
            select array_agg(distinct merchant_id) into ids from new_rows;
          elsif TG_OP = 'DELETE' then
            select array_agg(distinct merchant_id) into ids from old_rows;
          else
            select array_agg(distinct id) into ids from (
              select n.merchant_id as id from new_rows n join old_rows o on o.id = n.id
               where (n.merchant_id, n.nmid, n.mid, n.nmid_status, n.nmid_bank_code, n.deleted_at)
                     is distinct from (o.merchant_id, o.nmid, o.mid, o.nmid_status, o.nmid_bank_code, o.deleted_at)
              union
              select o.merchant_id from new_rows n join old_rows o on o.id = n.id where n.merchant_id <> o.merchant_id) changed;
          end if;
        else
          if TG_OP = 'INSERT' then
            select array_agg(distinct merchant_id) into ids from new_rows where tid is not null;
          elsif TG_OP = 'DELETE' then
            select array_agg(distinct merchant_id) into ids from old_rows where tid is not null;
          else
            -- A heartbeat (last_seen_at, status) sends nothing.
            select array_agg(distinct id) into ids from (
              select n.merchant_id as id from new_rows n join old_rows o on o.id = n.id
               where (n.tid, n.outlet_id, n.merchant_id) is distinct from (o.tid, o.outlet_id, o.merchant_id)
              union
              select o.merchant_id from new_rows n join old_rows o on o.id = n.id
               where (n.tid, n.outlet_id, n.merchant_id) is distinct from (o.tid, o.outlet_id, o.merchant_id)) changed;
          end if;
        end if;
        if ids is null then
          return null;
        end if;
        perform pg_advisory_xact_lock(hashtextextended('payment_targets:' || id, 0)) from unnest(ids) id order by id;
        -- A statement of its own: it sees every change committed while this one waited for the locks.
        perform graphile_worker.add_job('payment_target_outlets',
          json_build_object('targets', (select json_agg(t) from outlet.payment_targets_of(ids) t)), max_attempts => 25);
        return null;
      end $$;

      create trigger outlets_payment_target_insert after insert on outlet.outlets
        referencing new table as new_rows for each statement execute function outlet.enqueue_payment_targets();
      create trigger outlets_payment_target_update after update on outlet.outlets
        referencing new table as new_rows old table as old_rows for each statement execute function outlet.enqueue_payment_targets();
      create trigger outlets_payment_target_delete after delete on outlet.outlets
        referencing old table as old_rows for each statement execute function outlet.enqueue_payment_targets();
      create trigger terminals_payment_target_insert after insert on outlet.terminals
        referencing new table as new_rows for each statement execute function outlet.enqueue_payment_targets();
      create trigger terminals_payment_target_update after update on outlet.terminals
        referencing new table as new_rows old table as old_rows for each statement execute function outlet.enqueue_payment_targets();
      create trigger terminals_payment_target_delete after delete on outlet.terminals
        referencing old table as old_rows for each statement execute function outlet.enqueue_payment_targets();

      -- Every merchant with outlets again, 1,000 per job (this migration; \`ops bank-view:sync --all\`); returns jobs.
      create function outlet.enqueue_all_payment_targets() returns integer language sql volatile as $$
        select count(*)::integer from graphile_worker.add_jobs(array(
          select row('payment_target_outlets', json_build_object('targets', json_agg(t)), null, null, 25, null, null, null)::graphile_worker.job_spec
            from (select t, (row_number() over () - 1) / 1000 as chunk
                    from outlet.payment_targets_of(array(select distinct merchant_id from outlet.outlets)) t) numbered
           group by chunk))
      $$;
      select outlet.enqueue_all_payment_targets();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger outlets_payment_target_insert on outlet.outlets;
      drop trigger outlets_payment_target_update on outlet.outlets;
      drop trigger outlets_payment_target_delete on outlet.outlets;
      drop trigger terminals_payment_target_insert on outlet.terminals;
      drop trigger terminals_payment_target_update on outlet.terminals;
      drop trigger terminals_payment_target_delete on outlet.terminals;
      drop function outlet.enqueue_all_payment_targets();
      drop function outlet.enqueue_payment_targets();
      drop function outlet.payment_targets_of(uuid[]);
      drop sequence outlet.payment_target_versions;
      delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier = 'payment_target_outlets';
    `);
  }
}
