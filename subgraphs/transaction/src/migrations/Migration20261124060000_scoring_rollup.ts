import { Migration } from '@mikro-orm/migrations';

/**
 * Daily scoring aggregates (docs/scoring.md §3) per merchant and Asia/Jakarta day, filled on demand by
 * ScoringService for days whose settlement deadline has passed, so a scoring summary reads ~365 small rows
 * instead of a year of transactions. Correctness rests on invalidation: any write to a transaction of a day
 * before yesterday (Jakarta) deletes that day's row, under a shared advisory lock per merchant that the filler
 * takes exclusively, so a fill never commits a day that a concurrent write changed unseen. Writes of today and
 * yesterday — the intake hot path — only compare a date.
 */
export class Migration20261124060000_scoring_rollup extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "transaction".merchant_daily_rollups (
        merchant_id uuid not null,
        day date not null,
        count integer not null,
        amount bigint not null,
        on_time integer not null,
        primary key (merchant_id, day)
      );
      create function "transaction".invalidate_daily_rollup() returns trigger language plpgsql as $$
      declare
        cutoff date := (now() at time zone 'Asia/Jakarta')::date - 1;
        tx_day date;
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          tx_day := (old.transaction_at at time zone 'Asia/Jakarta')::date;
          if tx_day < cutoff then
            perform pg_advisory_xact_lock_shared(hashtext('rollup:' || old.merchant_id::text));
            delete from "transaction".merchant_daily_rollups r where r.merchant_id = old.merchant_id and r.day = tx_day;
          end if;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          tx_day := (new.transaction_at at time zone 'Asia/Jakarta')::date;
          if tx_day < cutoff then
            perform pg_advisory_xact_lock_shared(hashtext('rollup:' || new.merchant_id::text));
            delete from "transaction".merchant_daily_rollups r where r.merchant_id = new.merchant_id and r.day = tx_day;
          end if;
        end if;
        return null;
      end $$;
      create trigger transactions_invalidate_daily_rollup
        after insert or delete or update of merchant_id, transaction_at, status, gross_amount, refunded_amount, settled_at
        on "transaction".transactions for each row execute function "transaction".invalidate_daily_rollup();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger transactions_invalidate_daily_rollup on "transaction".transactions;
      drop function "transaction".invalidate_daily_rollup();
      drop table "transaction".merchant_daily_rollups;
    `);
  }
}
