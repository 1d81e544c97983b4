import { Migration } from '@mikro-orm/migrations';

/** The payment targets of each given merchant (Migration20261204100000_payment_target_jobs); `qris`: with what the static QRIS is built from. */
const targetsOf = (qris: boolean) => `
  create or replace function outlet.payment_targets_of(ids uuid[]) returns setof json language sql volatile as $$
    select json_build_object(
             'merchant_id', m.id, 'version', nextval('outlet.payment_target_versions'),
             'live_outlets', (select count(*) from outlet.outlets o where o.merchant_id = m.id and o.deleted_at is null),
             'outlets', coalesce((
               select json_agg(json_build_object(
                        'nmid', o.nmid, 'outlet_id', o.id, 'mid', o.mid, 'nmid_status', o.nmid_status,
                        'nmid_bank_code', o.nmid_bank_code,${qris ? `\n                        'city', o.city, 'postal_code', o.postal_code, 'qris_static_payload', o.qris_static_payload,` : ''}
                        'terminals', (select coalesce(json_object_agg(t.tid, t.id) filter (where t.tid is not null), '{}')
                                        from outlet.terminals t where t.outlet_id = o.id)))
                 from outlet.outlets o where o.merchant_id = m.id and o.deleted_at is null and o.nmid is not null), '[]'))
      from unnest(ids) m(id)
  $$;`;

/** The trigger function of Migration20261204100000_payment_target_jobs; `qris`: a change of those columns sends too. */
const enqueue = (qris: boolean) => `
  create or replace function outlet.enqueue_payment_targets() returns trigger language plpgsql as $$
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
           where (n.merchant_id, n.nmid, n.mid, n.nmid_status, n.nmid_bank_code, n.deleted_at${qris ? ', n.city, n.postal_code, n.qris_static_payload' : ''})
                 is distinct from (o.merchant_id, o.nmid, o.mid, o.nmid_status, o.nmid_bank_code, o.deleted_at${qris ? ', o.city, o.postal_code, o.qris_static_payload' : ''})
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
  end $$;`;

/**
 * The transaction subgraph builds an outlet's static QRIS from its copy of payment targets
 * (docs/decisions/0201-qris-payloads.md, "Scope"): each outlet of a `payment_target_outlets` set also carries its city,
 * postal code and stored correction, and a change of them sends the set. Every merchant is enqueued again to fill the copy.
 */
export class Migration20261207100000_payment_target_qris_fields extends Migration {
  override async up(): Promise<void> {
    this.addSql(`${targetsOf(true)}${enqueue(true)}
      select outlet.enqueue_all_payment_targets();`);
  }

  override async down(): Promise<void> {
    this.addSql(`${targetsOf(false)}${enqueue(false)}`);
  }
}
