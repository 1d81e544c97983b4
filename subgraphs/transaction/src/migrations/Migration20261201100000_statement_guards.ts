import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 18 §2: the insert-time guards of `transactions` and `payment_events` run once per statement instead of once per
 * row (docs/decisions/0208-partitioned-history.md). The row triggers cost a PL/pgSQL call and two or three
 * statements per row: 40–60 % of what inserting an intake batch's transactions cost PostgreSQL. Each is now one
 * AFTER INSERT … FOR EACH STATEMENT trigger with the inserted rows as a transition table:
 * - `transactions`: every row's (bank_code, transaction_code) must be claimed in `transaction_codes` by that row; rows
 *   inserted without a claim (anything but the intake, which claims first) claim theirs, and a code claimed by another
 *   transaction fails the statement with the same unique_violation as before. The daily rollups of the inserted rows'
 *   past days are dropped (the update and delete paths keep their row trigger).
 * - `payment_events`: the same for (bank_code, external_event_id) in `payment_event_keys`.
 * One select over the inserted rows decides; an intake batch, already claimed, runs nothing else. The lookups are
 * LATERAL … LIMIT 1 so they stay index probes whatever the batch size. Inserts straight into a partition (rather than
 * the table) are no longer guarded: the product writes through the table; ensure_month_partitions moves rows whose keys
 * are already claimed.
 */
export class Migration20261201100000_statement_guards extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      drop trigger transactions_claim_code on "transaction".transactions;
      drop function "transaction".claim_transaction_code();
      drop trigger payment_events_claim_key on "transaction".payment_events;
      drop function "transaction".claim_event_key();
      drop trigger transactions_invalidate_daily_rollup on "transaction".transactions;
      create trigger transactions_invalidate_daily_rollup
        after delete or update of merchant_id, transaction_at, status, gross_amount, refunded_amount, settled_at
        on "transaction".transactions for each row execute function "transaction".invalidate_daily_rollup();

      create function "transaction".claim_inserted_codes() returns trigger language plpgsql as $$
      declare missing int; taken int; moved int;
      begin
        select count(*) filter (where k.transaction_id is null), count(*) filter (where k.transaction_id <> n.id),
               count(*) filter (where k.transaction_id = n.id and k.transaction_at is distinct from n.transaction_at)
          into missing, taken, moved
          from inserted n left join lateral (select k.transaction_id, k.transaction_at from "transaction".transaction_codes k
                where k.bank_code = n.bank_code and k.transaction_code = n.transaction_code limit 1) k on true
         where n.bank_code is not null;
        if missing > 0 then
          insert into "transaction".transaction_codes (bank_code, transaction_code, transaction_id, transaction_at)
            select n.bank_code, n.transaction_code, n.id, n.transaction_at from inserted n where n.bank_code is not null
            on conflict do nothing;
          -- A code claimed meanwhile by a concurrent transaction (the insert waited for its commit) is that one's.
          select count(*) filter (where k.transaction_id <> n.id) into taken
            from inserted n join lateral (select k.transaction_id from "transaction".transaction_codes k
                  where k.bank_code = n.bank_code and k.transaction_code = n.transaction_code limit 1) k on true
           where n.bank_code is not null;
        end if;
        if taken > 0 then
          raise exception 'duplicate key value violates unique constraint "transaction_codes_pkey"'
            using errcode = 'unique_violation', schema = 'transaction', table = 'transaction_codes', constraint = 'transaction_codes_pkey';
        end if;
        if moved > 0 then
          update "transaction".transaction_codes k set transaction_at = n.transaction_at from inserted n
           where k.bank_code = n.bank_code and k.transaction_code = n.transaction_code and k.transaction_id = n.id
             and k.transaction_at is distinct from n.transaction_at;
        end if;
        return null;
      end $$;
      create trigger transactions_claim_codes after insert on "transaction".transactions
        referencing new table as inserted for each statement execute function "transaction".claim_inserted_codes();

      -- What invalidate_daily_rollup does for an inserted row, for all of a statement's rows at once.
      create function "transaction".invalidate_inserted_rollups() returns trigger language plpgsql as $$
      declare cutoff date := (now() at time zone 'Asia/Jakarta')::date - 1;
      begin
        perform pg_advisory_xact_lock_shared(hashtext('rollup:' || d.merchant_id::text))
           from (select distinct n.merchant_id from inserted n where (n.transaction_at at time zone 'Asia/Jakarta')::date < cutoff
                  order by n.merchant_id) d;
        delete from "transaction".merchant_daily_rollups r
         using (select distinct n.merchant_id, (n.transaction_at at time zone 'Asia/Jakarta')::date as day from inserted n
                 where (n.transaction_at at time zone 'Asia/Jakarta')::date < cutoff) d
         where r.merchant_id = d.merchant_id and r.day = d.day;
        return null;
      end $$;
      create trigger transactions_invalidate_inserted_rollups after insert on "transaction".transactions
        referencing new table as inserted for each statement execute function "transaction".invalidate_inserted_rollups();

      create function "transaction".claim_inserted_event_keys() returns trigger language plpgsql as $$
      declare missing int; taken int;
      begin
        select count(*) filter (where k.event_id is null), count(*) filter (where k.event_id <> n.id)
          into missing, taken
          from inserted n left join lateral (select k.event_id from "transaction".payment_event_keys k
                where k.bank_code = n.bank_code and k.external_event_id = n.external_event_id limit 1) k on true;
        if missing > 0 then
          insert into "transaction".payment_event_keys (bank_code, external_event_id, event_id, received_at)
            select n.bank_code, n.external_event_id, n.id, n.received_at from inserted n
            on conflict do nothing;
          select count(*) filter (where k.event_id <> n.id) into taken
            from inserted n join lateral (select k.event_id from "transaction".payment_event_keys k
                  where k.bank_code = n.bank_code and k.external_event_id = n.external_event_id limit 1) k on true;
        end if;
        if taken > 0 then
          raise exception 'duplicate key value violates unique constraint "payment_event_keys_pkey"'
            using errcode = 'unique_violation', schema = 'transaction', table = 'payment_event_keys', constraint = 'payment_event_keys_pkey';
        end if;
        return null;
      end $$;
      create trigger payment_events_claim_keys after insert on "transaction".payment_events
        referencing new table as inserted for each statement execute function "transaction".claim_inserted_event_keys();

      -- A new transaction_at can move the row to another month: PostgreSQL runs that as a delete and an insert, firing
      -- neither AFTER UPDATE row triggers nor INSERT statement triggers. The row trigger that keeps the key row's time
      -- (and refuses new ids, banks and codes) now runs BEFORE UPDATE, which fires for a moving row too.
      create or replace function "transaction".keep_transaction_code() returns trigger language plpgsql as $$
      begin
        if new.bank_code is distinct from old.bank_code or new.transaction_code is distinct from old.transaction_code or new.id <> old.id then
          raise exception 'a transaction''s id, bank_code and transaction_code do not change' using errcode = 'integrity_constraint_violation';
        end if;
        update "transaction".transaction_codes k set transaction_at = new.transaction_at
         where k.bank_code = new.bank_code and k.transaction_code = new.transaction_code and k.transaction_id = new.id;
        return new;
      end $$;
      drop trigger transactions_keep_code on "transaction".transactions;
      create trigger transactions_keep_code before update of id, bank_code, transaction_code, transaction_at on "transaction".transactions
        for each row when (new.transaction_at is distinct from old.transaction_at or new.bank_code is distinct from old.bank_code
                           or new.transaction_code is distinct from old.transaction_code or new.id <> old.id)
        execute function "transaction".keep_transaction_code();
    `);
  }

  override async down(): Promise<void> {
    // Back to what Migration20261130100000_partitioned_history created, word for word.
    this.addSql(`
      create or replace function "transaction".keep_transaction_code() returns trigger language plpgsql as $$
      begin
        if new.bank_code is distinct from old.bank_code or new.transaction_code is distinct from old.transaction_code or new.id <> old.id then
          raise exception 'a transaction''s id, bank_code and transaction_code do not change' using errcode = 'integrity_constraint_violation';
        end if;
        update "transaction".transaction_codes k set transaction_at = new.transaction_at
         where k.bank_code = new.bank_code and k.transaction_code = new.transaction_code and k.transaction_id = new.id;
        return null;
      end $$;
      drop trigger transactions_keep_code on "transaction".transactions;
      create trigger transactions_keep_code after update of id, bank_code, transaction_code, transaction_at on "transaction".transactions
        for each row when (new.transaction_at is distinct from old.transaction_at or new.bank_code is distinct from old.bank_code
                           or new.transaction_code is distinct from old.transaction_code or new.id <> old.id)
        execute function "transaction".keep_transaction_code();
      drop trigger transactions_claim_codes on "transaction".transactions;
      drop trigger transactions_invalidate_inserted_rollups on "transaction".transactions;
      drop trigger payment_events_claim_keys on "transaction".payment_events;
      drop function "transaction".claim_inserted_codes(), "transaction".invalidate_inserted_rollups(),
        "transaction".claim_inserted_event_keys();
      drop trigger transactions_invalidate_daily_rollup on "transaction".transactions;
      create trigger transactions_invalidate_daily_rollup
        after insert or delete or update of merchant_id, transaction_at, status, gross_amount, refunded_amount, settled_at
        on "transaction".transactions for each row execute function "transaction".invalidate_daily_rollup();

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
    `);
  }
}
