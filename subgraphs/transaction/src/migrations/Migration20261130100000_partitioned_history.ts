import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 18 §1, docs/decisions/0208-partitioned-history.md: `transactions` (by transaction_at) and `payment_events` (by
 * received_at) become range-partitioned by Asia/Jakarta month, so what a month costs to write, index and read stays
 * the same however many months are kept.
 *
 * - Layout per table: `<table>_history` [MINVALUE, first month), one `<table>_pYYYY_MM` per month, `<table>_future`
 *   [after the last month, MAXVALUE). No DEFAULT partition: with one, PostgreSQL cannot read the partitions in order
 *   (an ordered Append) and the per-merchant "latest N" reads would probe every month (a Merge Append).
 *   `"transaction".ensure_month_partitions` adds months and moves the rows a catch-all holds of them
 *   (partition.service.ts runs it at start, periodically, and `ops partitions:ensure`).
 * - A unique index of a partitioned table must contain the partition key, so the two all-time uniqueness rules of
 *   psp-api.md (a bank's external_event_id, a bank's transaction_code) move to narrow, unpartitioned key tables:
 *   `payment_event_keys` and `transaction_codes`. The intake claims the key row first (`insert … on conflict do
 *   nothing`), which decides races exactly as the former unique constraints did. A guard trigger on each partitioned
 *   table claims the key of any other insert and refuses (unique_violation) a key owned by another row, so no write
 *   path can bypass the rule. Keys are never deleted: a code stays used even if its row is archived.
 * - Primary keys become (id, partition column). payment_events.transaction_id loses its foreign key (a partitioned
 *   table can be referenced only by its whole primary key); the event and its transaction are written in one intake
 *   transaction, which is what keeps them consistent. transactions.settlement_ref keeps its foreign key.
 * - The scoring rollups' invalidation trigger is recreated on the partitioned table (it fires for every partition).
 */
export class Migration20261130100000_partitioned_history extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function "transaction".month_start(month date) returns timestamptz language sql immutable as
        $$ select date_trunc('month', month::timestamp) at time zone 'Asia/Jakarta' $$;

      -- Monthly partitions of "transaction".<parent> for every month of [first_month, last_month] (Asia/Jakarta months),
      -- between the catch-alls <parent>_history and <parent>_future, which shrink to make room: the rows they hold of a
      -- new month move into it (copied aside, the catch-all dropped and created again without the month, the rows
      -- inserted through the parent). Idempotent; one caller at a time per table (advisory lock). Returns the
      -- partitions created and how many rows each received from a catch-all.
      create function "transaction".ensure_month_partitions(parent text, first_month date, last_month date)
        returns table (partition_name text, moved_rows bigint)
      language plpgsql as $$
      declare
        parent_table regclass := format('"transaction".%I', parent)::regclass;
        lo date;
        hi date;
        m date;
        catchall text;
        key text;
      begin
        first_month := date_trunc('month', first_month::timestamp)::date;
        last_month := date_trunc('month', last_month::timestamp)::date;
        if first_month > last_month then
          raise exception 'first month % is after last month %', first_month, last_month using errcode = 'invalid_parameter_value';
        end if;
        perform pg_advisory_xact_lock(hashtext('partitions:' || parent));
        select min(to_date(substr(c.relname, length(parent) + 3), 'YYYY_MM')), max(to_date(substr(c.relname, length(parent) + 3), 'YYYY_MM'))
          into lo, hi
          from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = parent_table and c.relname ~ ('^' || parent || '_p[0-9]{4}_[0-9]{2}$');
        if lo is null then
          -- The first layout (the migration, on an empty table): both catch-alls and the months between them.
          execute format('create table "transaction".%I partition of %s for values from (minvalue) to (%L)',
                         parent || '_history', parent_table, "transaction".month_start(first_month));
          for m in select g::date from generate_series(first_month, last_month, interval '1 month') g loop
            partition_name := format('%s_p%s', parent, to_char(m, 'YYYY_MM'));
            execute format('create table "transaction".%I partition of %s for values from (%L) to (%L)',
                           partition_name, parent_table, "transaction".month_start(m), "transaction".month_start((m + interval '1 month')::date));
            moved_rows := 0;
            return next;
          end loop;
          execute format('create table "transaction".%I partition of %s for values from (%L) to (maxvalue)',
                         parent || '_future', parent_table, "transaction".month_start((last_month + interval '1 month')::date));
          return;
        end if;
        if last_month <= hi and first_month >= lo then return; end if;
        -- Detaching a catch-all needs this lock anyway: take it before anything, so that the steps cannot deadlock with
        -- a writer. Held until the commit (a few milliseconds while the catch-alls are empty, which creating ahead keeps).
        execute format('lock table %s in access exclusive mode', parent_table);
        select a.attname into key from pg_partitioned_table p join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
         where p.partrelid = parent_table;
        -- Months after the last one, oldest first (the future shrinks from below), then months before the first one,
        -- newest first (the history shrinks from above): the layout never has a gap.
        for catchall, m in
          select 'future', g::date from generate_series((hi + interval '1 month')::date, last_month, interval '1 month') g
          union all
          select 'history', g::date from generate_series((lo - interval '1 month')::date, first_month, interval '-1 month') g
        loop
          partition_name := format('%s_p%s', parent, to_char(m, 'YYYY_MM'));
          execute format('create temporary table moving_rows on commit drop as select * from "transaction".%I where %I >= %L and %I < %L',
                         parent || '_' || catchall, key, "transaction".month_start(m), key, "transaction".month_start((m + interval '1 month')::date));
          get diagnostics moved_rows = row_count;
          if moved_rows > 0 then
            -- Only the month's rows leave the catch-all; the rest stay where they are.
            execute format('delete from "transaction".%I c using moving_rows r where c.id = r.id', parent || '_' || catchall);
          end if;
          if catchall = 'future' then
            execute format('alter table %s detach partition "transaction".%I', parent_table, parent || '_future');
            execute format('create table "transaction".%I partition of %s for values from (%L) to (%L)',
                           partition_name, parent_table, "transaction".month_start(m), "transaction".month_start((m + interval '1 month')::date));
            execute format('alter table %s attach partition "transaction".%I for values from (%L) to (maxvalue)',
                           parent_table, parent || '_future', "transaction".month_start((m + interval '1 month')::date));
          else
            execute format('alter table %s detach partition "transaction".%I', parent_table, parent || '_history');
            execute format('create table "transaction".%I partition of %s for values from (%L) to (%L)',
                           partition_name, parent_table, "transaction".month_start(m), "transaction".month_start((m + interval '1 month')::date));
            execute format('alter table %s attach partition "transaction".%I for values from (minvalue) to (%L)',
                           parent_table, parent || '_history', "transaction".month_start(m));
          end if;
          if moved_rows > 0 then
            execute format('insert into %s select * from moving_rows', parent_table);
          end if;
          execute 'drop table moving_rows';
          return next;
        end loop;
      end $$;
    `);

    // Months from the oldest row's (at most five years back: older rows stay in <table>_history; none without rows)
    // to three after the current one; rows are copied in afterwards, so nothing moves.
    this.addSql(`
      alter table "transaction".payment_events drop constraint payment_events_transaction_id_fkey;
      drop trigger transactions_invalidate_daily_rollup on "transaction".transactions;
      alter table "transaction".transactions rename to transactions_unpartitioned;
      alter table "transaction".payment_events rename to payment_events_unpartitioned;

      create table "transaction".transactions
        (like "transaction".transactions_unpartitioned including defaults including constraints including storage)
        partition by range (transaction_at);
      create table "transaction".payment_events
        (like "transaction".payment_events_unpartitioned including defaults including constraints including storage)
        partition by range (received_at);

      select "transaction".ensure_month_partitions('transactions',
        least(now() at time zone 'Asia/Jakarta',
              greatest(coalesce((select min(transaction_at) from "transaction".transactions_unpartitioned), now()) at time zone 'Asia/Jakarta',
                       now() at time zone 'Asia/Jakarta' - interval '5 years'))::date,
        (now() at time zone 'Asia/Jakarta' + interval '3 months')::date);
      select "transaction".ensure_month_partitions('payment_events',
        least(now() at time zone 'Asia/Jakarta',
              greatest(coalesce((select min(received_at) from "transaction".payment_events_unpartitioned), now()) at time zone 'Asia/Jakarta',
                       now() at time zone 'Asia/Jakarta' - interval '5 years'))::date,
        (now() at time zone 'Asia/Jakarta' + interval '3 months')::date);

      insert into "transaction".transactions select * from "transaction".transactions_unpartitioned;
      insert into "transaction".payment_events select * from "transaction".payment_events_unpartitioned;

      create table "transaction".transaction_codes (
        bank_code text not null,
        transaction_code text not null,
        transaction_id uuid not null,
        transaction_at timestamptz not null,
        constraint transaction_codes_pkey primary key (bank_code, transaction_code)
      );
      create table "transaction".payment_event_keys (
        bank_code text not null,
        external_event_id text not null,
        event_id uuid not null,
        received_at timestamptz not null,
        constraint payment_event_keys_pkey primary key (bank_code, external_event_id)
      );
      -- Rows without a bank (demo data written before event intake) have no code to keep unique, as before (nulls were distinct).
      insert into "transaction".transaction_codes
        select bank_code, transaction_code, id, transaction_at from "transaction".transactions_unpartitioned where bank_code is not null;
      insert into "transaction".payment_event_keys
        select bank_code, external_event_id, id, received_at from "transaction".payment_events_unpartitioned;

      drop table "transaction".payment_events_unpartitioned;
      drop table "transaction".transactions_unpartitioned;

      alter table "transaction".transactions
        add constraint transactions_pkey primary key (id, transaction_at),
        add constraint transactions_settlement_ref_fkey foreign key (settlement_ref) references "transaction".settlements (id);
      create index transactions_merchant_time_idx on "transaction".transactions (merchant_id, transaction_at desc, id desc);
      create index transactions_outlet_time_idx on "transaction".transactions (outlet_id, transaction_at desc, id desc) where outlet_id is not null;
      create index transactions_bank_reference_idx on "transaction".transactions (bank_code, external_reference) where external_reference is not null;
      create index transactions_bank_rrn_idx on "transaction".transactions (bank_code, rrn) where rrn is not null;
      create index transactions_unsettled_outlet_idx on "transaction".transactions (outlet_id, transaction_at)
        where status = 'success' and settlement_status = 'unsettled';
      create index transactions_unsettled_nmid_idx on "transaction".transactions (nmid, transaction_at)
        where status = 'success' and settlement_status = 'unsettled';
      create index transactions_merchant_success_time_idx on "transaction".transactions (merchant_id, transaction_at)
        include (gross_amount, mdr_fee_amount, platform_fee) where status = 'success';
      create index transactions_merchant_code_idx on "transaction".transactions (merchant_id, transaction_code);

      alter table "transaction".payment_events add constraint payment_events_pkey primary key (id, received_at);
      create index payment_events_transaction_id_idx on "transaction".payment_events (transaction_id) where transaction_id is not null;
      create index payment_events_received_at_idx on "transaction".payment_events (received_at);

      -- The guards: any insert claims its key (or finds it claimed for this very row, as the intake does first).
      create function "transaction".claim_transaction_code() returns trigger language plpgsql as $$
      begin
        if new.bank_code is null then return new; end if;
        insert into "transaction".transaction_codes (bank_code, transaction_code, transaction_id, transaction_at)
          values (new.bank_code, new.transaction_code, new.id, new.transaction_at) on conflict do nothing;
        if not found then
          update "transaction".transaction_codes k set transaction_at = new.transaction_at
           where k.bank_code = new.bank_code and k.transaction_code = new.transaction_code and k.transaction_id = new.id
             and k.transaction_at is distinct from new.transaction_at;
          perform 1 from "transaction".transaction_codes k
            where k.bank_code = new.bank_code and k.transaction_code = new.transaction_code and k.transaction_id = new.id;
          if not found then
            raise exception 'duplicate key value violates unique constraint "transaction_codes_pkey"'
              using errcode = 'unique_violation', schema = 'transaction', table = 'transaction_codes', constraint = 'transaction_codes_pkey';
          end if;
        end if;
        return new;
      end $$;
      create trigger transactions_claim_code before insert on "transaction".transactions
        for each row execute function "transaction".claim_transaction_code();
      -- The key rows point at their transaction's partition: a transaction's bank and code never change, its time may.
      create function "transaction".keep_transaction_code() returns trigger language plpgsql as $$
      begin
        if new.bank_code is distinct from old.bank_code or new.transaction_code is distinct from old.transaction_code or new.id <> old.id then
          raise exception 'a transaction''s id, bank_code and transaction_code do not change' using errcode = 'integrity_constraint_violation';
        end if;
        update "transaction".transaction_codes k set transaction_at = new.transaction_at
         where k.bank_code = new.bank_code and k.transaction_code = new.transaction_code and k.transaction_id = new.id;
        return null;
      end $$;
      create trigger transactions_keep_code after update of id, bank_code, transaction_code, transaction_at on "transaction".transactions
        for each row when (new.transaction_at is distinct from old.transaction_at or new.bank_code is distinct from old.bank_code
                           or new.transaction_code is distinct from old.transaction_code or new.id <> old.id)
        execute function "transaction".keep_transaction_code();

      create function "transaction".claim_event_key() returns trigger language plpgsql as $$
      begin
        insert into "transaction".payment_event_keys (bank_code, external_event_id, event_id, received_at)
          values (new.bank_code, new.external_event_id, new.id, new.received_at) on conflict do nothing;
        if not found then
          perform 1 from "transaction".payment_event_keys k
            where k.bank_code = new.bank_code and k.external_event_id = new.external_event_id and k.event_id = new.id;
          if not found then
            raise exception 'duplicate key value violates unique constraint "payment_event_keys_pkey"'
              using errcode = 'unique_violation', schema = 'transaction', table = 'payment_event_keys', constraint = 'payment_event_keys_pkey';
          end if;
        end if;
        return new;
      end $$;
      create trigger payment_events_claim_key before insert on "transaction".payment_events
        for each row execute function "transaction".claim_event_key();
      -- An event's first delivery (id, bank, external id, received_at) is never rewritten (payment-event.repository.ts).
      create function "transaction".keep_event_key() returns trigger language plpgsql as $$
      begin
        raise exception 'a payment event''s id, bank_code, external_event_id and received_at do not change' using errcode = 'integrity_constraint_violation';
      end $$;
      create trigger payment_events_keep_key before update of id, bank_code, external_event_id, received_at on "transaction".payment_events
        for each row when (new.id <> old.id or new.bank_code <> old.bank_code or new.external_event_id <> old.external_event_id
                           or new.received_at <> old.received_at)
        execute function "transaction".keep_event_key();

      -- The newest transactions of each merchant, at most per_merchant each, with the filters given (null: none), in one
      -- statement with sorts off. The months are partitions in bound order, so each merchant's months can be read newest
      -- first on their (merchant_id, transaction_at desc, id desc) indexes, stopping at the limit (an ordered Append).
      -- The planner estimates an average merchant's few rows, though, for which reading all of a merchant's rows and
      -- sorting them looks as cheap (an analysed empty partition, a month ahead, makes it cheaper still): for a merchant
      -- with a long history that is every row it has. Without sorts it takes the ordered path. The statement is built
      -- with the filters present only and run with their values (EXECUTE … USING: a plan for these values, so a date
      -- range prunes months at planning). Rows come grouped by merchant, not sorted across merchants. No JIT: should a
      -- plan ever need a sort, its disabled cost would otherwise look worth compiling.
      create function "transaction".merchant_pages(merchant_ids uuid[], per_merchant int, statuses text[] default null,
          from_at timestamptz default null, to_at timestamptz default null, before_at timestamptz default null,
          after_at timestamptz default null, after_id uuid default null, outlet uuid default null, outlet_ids uuid[] default null,
          terminal uuid default null)
        returns setof "transaction".transactions
      language plpgsql stable set enable_sort = off set jit = off as $$
      declare
        q text := 'select p.* from unnest($1) as m(merchant_key) cross join lateral '
               || '(select t.* from "transaction".transactions t where t.merchant_id = m.merchant_key';
      begin
        if statuses is not null then q := q || ' and t.status = any($3)'; end if;
        if from_at is not null then q := q || ' and t.transaction_at >= $4'; end if;
        if to_at is not null then q := q || ' and t.transaction_at <= $5'; end if;
        if before_at is not null then q := q || ' and t.transaction_at < $6'; end if;
        if after_at is not null then q := q || ' and (t.transaction_at, t.id) < ($7, $8)'; end if;
        if outlet is not null then q := q || ' and t.outlet_id = $9'; end if;
        if outlet_ids is not null then q := q || ' and t.outlet_id = any($10)'; end if;
        if terminal is not null then q := q || ' and t.terminal_id = $11'; end if;
        q := q || ' order by t.transaction_at desc, t.id desc limit $2) p';
        return query execute q using merchant_ids, per_merchant, statuses, from_at, to_at, before_at, after_at, after_id, outlet,
          outlet_ids, terminal;
      end $$;

      create trigger transactions_invalidate_daily_rollup
        after insert or delete or update of merchant_id, transaction_at, status, gross_amount, refunded_amount, settled_at
        on "transaction".transactions for each row execute function "transaction".invalidate_daily_rollup();
      analyze "transaction".transactions, "transaction".payment_events, "transaction".transaction_codes, "transaction".payment_event_keys;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop function "transaction".merchant_pages(uuid[], int, text[], timestamptz, timestamptz, timestamptz, timestamptz, uuid, uuid, uuid[], uuid);
      alter table "transaction".transactions rename to transactions_partitioned;
      alter table "transaction".payment_events rename to payment_events_partitioned;
      create table "transaction".transactions (like "transaction".transactions_partitioned including defaults including constraints including storage);
      create table "transaction".payment_events (like "transaction".payment_events_partitioned including defaults including constraints including storage);
      insert into "transaction".transactions select * from "transaction".transactions_partitioned;
      insert into "transaction".payment_events select * from "transaction".payment_events_partitioned;
      drop table "transaction".transactions_partitioned, "transaction".payment_events_partitioned;
      drop table "transaction".transaction_codes, "transaction".payment_event_keys;
      drop function "transaction".claim_transaction_code(), "transaction".keep_transaction_code(),
        "transaction".claim_event_key(), "transaction".keep_event_key(),
        "transaction".ensure_month_partitions(text, date, date), "transaction".month_start(date);
      alter table "transaction".transactions
        add constraint transactions_pkey primary key (id),
        add constraint transactions_bank_code_transaction_code_key unique (bank_code, transaction_code),
        add constraint transactions_settlement_ref_fkey foreign key (settlement_ref) references "transaction".settlements (id);
      create index transactions_merchant_time_idx on "transaction".transactions (merchant_id, transaction_at desc, id desc);
      create index transactions_outlet_time_idx on "transaction".transactions (outlet_id, transaction_at desc, id desc) where outlet_id is not null;
      create index transactions_bank_reference_idx on "transaction".transactions (bank_code, external_reference) where external_reference is not null;
      create index transactions_bank_rrn_idx on "transaction".transactions (bank_code, rrn) where rrn is not null;
      create index transactions_unsettled_outlet_idx on "transaction".transactions (outlet_id, transaction_at)
        where status = 'success' and settlement_status = 'unsettled';
      create index transactions_unsettled_nmid_idx on "transaction".transactions (nmid, transaction_at)
        where status = 'success' and settlement_status = 'unsettled';
      create index transactions_merchant_success_time_idx on "transaction".transactions (merchant_id, transaction_at)
        include (gross_amount, mdr_fee_amount, platform_fee) where status = 'success';
      create index transactions_merchant_code_idx on "transaction".transactions (merchant_id, transaction_code);
      alter table "transaction".payment_events
        add constraint payment_events_pkey primary key (id),
        add constraint payment_events_bank_code_external_event_id_key unique (bank_code, external_event_id),
        add constraint payment_events_transaction_id_fkey foreign key (transaction_id) references "transaction".transactions (id) deferrable initially deferred;
      create index payment_events_transaction_id_idx on "transaction".payment_events (transaction_id) where transaction_id is not null;
      create index payment_events_received_at_idx on "transaction".payment_events (received_at);
      create trigger transactions_invalidate_daily_rollup
        after insert or delete or update of merchant_id, transaction_at, status, gross_amount, refunded_amount, settled_at
        on "transaction".transactions for each row execute function "transaction".invalidate_daily_rollup();
    `);
  }
}
