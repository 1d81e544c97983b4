import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 18 §1's last leftover, docs/decisions/0208-partitioned-history.md: `ops partitions:archive` detaches old months of
 * `transactions` and `payment_events` into the `archive` schema, and the intake still answers a replay of an event
 * whose first delivery went there.
 *
 * - `"transaction".archive_month_partitions(parent, before_month)`: in one transaction, under the same advisory lock as
 *   ensure_month_partitions and the parent's ACCESS EXCLUSIVE lock, detaches every month before `before_month`, moves
 *   it to `archive` (kept under its name, never dropped) and re-attaches `<parent>_history` up to the first month left,
 *   so a back-dated row of an archived month lands in history. Every step is a catalog change: the history's new bound
 *   is proven by its CHECK constraint `<parent>_history_archive_bound`, validated beforehand (partition.repository.ts),
 *   so the attach does not scan it under the lock. Refuses (nothing changed) a month whose name `archive` already holds.
 *   Idempotent: nothing before `before_month` left, nothing done.
 * - `"transaction".bound_history(parent, first_kept, validate)`: that constraint, added (NOT VALID) or validated.
 * - `"transaction".attached_months(parent)`: the monthly partitions attached, with their month and estimated rows.
 * - `"transaction".archived_payment_event(bank, external_id)`: the first delivery of a claimed key that is no longer
 *   attached, read from its month in `archive` (as a row of today's `payment_events`, so a column added since reads
 *   null); when that table is gone too, a row with the key's `id` and `received_at` only.
 */
export class Migration20261206100000_archive_month_partitions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- The monthly partitions attached to a parent (named <parent>_pYYYY_MM), with their month and estimated rows.
      create function "transaction".attached_months(parent_table regclass)
        returns table (name text, month date, rows bigint)
      language sql stable as $$
        select c.relname::text, to_date(right(c.relname, 7), 'YYYY_MM'), greatest(c.reltuples, 0)::bigint
          from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = parent_table and c.relname ~ '_p[0-9]{4}_[0-9]{2}$'
      $$;

      -- Proves that <parent>_history holds nothing from first_kept's month on, so that archive_month_partitions can attach
      -- it up to there without a scan under its lock: the CHECK constraint <parent>_history_archive_bound is added NOT
      -- VALID (a brief ACCESS EXCLUSIVE lock on the history, no scan), then, in a later call and transaction, validated
      -- (a scan under SHARE UPDATE EXCLUSIVE, which reads and writes pass). archive_month_partitions drops it.
      create function "transaction".bound_history(parent text, first_kept date, validate boolean) returns void
      language plpgsql as $$
      declare
        history text := parent || '_history';
        bound text := parent || '_history_archive_bound';
        key text;
      begin
        if validate then
          execute format('alter table "transaction".%I validate constraint %I', history, bound);
          return;
        end if;
        select a.attname into key from pg_partitioned_table p join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
         where p.partrelid = format('"transaction".%I', parent)::regclass;
        execute format('alter table "transaction".%I drop constraint if exists %I, add constraint %I check (%I < %L) not valid',
                       history, bound, bound, key, "transaction".month_start(first_kept));
      end $$;

      create function "transaction".archive_month_partitions(parent text, before_month date)
        returns table (partition_name text, archived_as text, estimated_rows bigint)
      language plpgsql as $$
      declare
        parent_table regclass := format('"transaction".%I', parent)::regclass;
        history text := parent || '_history';
        new_first date;
        taken text;
        suffix int;
        m record;
      begin
        before_month := date_trunc('month', before_month::timestamp)::date;
        if to_regnamespace('archive') is null then
          raise exception 'schema "archive" does not exist (npm run ops -- partitions:archive creates it)' using errcode = 'invalid_schema_name';
        end if;
        perform pg_advisory_xact_lock(hashtext('partitions:' || parent));
        if not exists (select 1 from "transaction".attached_months(parent_table) a where a.month < before_month) then return; end if;
        select min(a.month) into new_first from "transaction".attached_months(parent_table) a where a.month >= before_month;
        if new_first is null then
          raise exception 'archiving every month of % before % would leave none attached', parent, before_month
            using errcode = 'invalid_parameter_value';
        end if;
        select a.name into taken from "transaction".attached_months(parent_table) a
         where a.month < before_month and to_regclass(format('archive.%I', a.name)) is not null order by a.month limit 1;
        if taken is not null then
          raise exception 'archive.% exists already (its month was archived before and created again): rename or drop it first', taken
            using errcode = 'duplicate_table';
        end if;
        -- Detaching the months and the history needs this lock; taken first, so that no step can deadlock with a writer.
        -- Every step below is a catalog change (the history's new bound is proven by its validated CHECK constraint), so
        -- it is held for milliseconds whatever the rows; the caller's lock_timeout bounds the wait for it.
        execute format('lock table %s in access exclusive mode', parent_table);
        for m in select a.name, a.rows from "transaction".attached_months(parent_table) a where a.month < before_month order by a.month loop
          execute format('alter table %s detach partition "transaction".%I', parent_table, m.name);
          -- An index name archive holds already (of a copy of this month archived before): this one gets a suffix.
          for taken in select i.relname::text from pg_index x join pg_class i on i.oid = x.indexrelid
                        where x.indrelid = format('"transaction".%I', m.name)::regclass and to_regclass(format('archive.%I', i.relname)) is not null loop
            suffix := 2;
            while to_regclass(format('archive.%I', left(taken, 58) || '_' || suffix)) is not null
               or to_regclass(format('"transaction".%I', left(taken, 58) || '_' || suffix)) is not null loop
              suffix := suffix + 1;
            end loop;
            execute format('alter index "transaction".%I rename to %I', taken, left(taken, 58) || '_' || suffix);
          end loop;
          execute format('alter table "transaction".%I set schema archive', m.name);
          partition_name := m.name;
          archived_as := 'archive.' || m.name;
          estimated_rows := m.rows;
          return next;
        end loop;
        -- No gap: a row of an archived month finds the history from the same commit on.
        execute format('alter table %s detach partition "transaction".%I', parent_table, history);
        execute format('alter table %s attach partition "transaction".%I for values from (minvalue) to (%L)',
                       parent_table, history, "transaction".month_start(new_first));
        execute format('alter table "transaction".%I drop constraint if exists %I', history, history || '_archive_bound');
      end $$;

      create function "transaction".archived_payment_event(bank text, external_id text)
        returns setof "transaction".payment_events
      language plpgsql stable as $$
      declare
        key record;
        archived regclass;
      begin
        select k.event_id, k.received_at into key from "transaction".payment_event_keys k
         where k.bank_code = bank and k.external_event_id = external_id;
        if not found then return; end if;
        select c.oid::regclass into archived from pg_class c
         where c.relnamespace = to_regnamespace('archive') and c.relkind = 'r'
           and c.relname = 'payment_events_p' || to_char(key.received_at at time zone 'Asia/Jakarta', 'YYYY_MM');
        if archived is not null then
          return query execute format(
            'select (jsonb_populate_record(null::"transaction".payment_events, to_jsonb(e))).* from %s e where e.id = $1 and e.received_at = $2',
            archived) using key.event_id, key.received_at;
          if found then return; end if;
        end if;
        return query select (jsonb_populate_record(null::"transaction".payment_events,
                                                   jsonb_build_object('id', key.event_id, 'received_at', key.received_at))).*;
      end $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop function "transaction".archived_payment_event(text, text);
      drop function "transaction".archive_month_partitions(text, date);
      drop function "transaction".bound_history(text, date, boolean);
      drop function "transaction".attached_months(regclass);
    `);
  }
}
