import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 18 §2: the rollup invalidation of inserted transactions (docs/decisions/0208-partitioned-history.md)
 * returns at once when no inserted row falls on a rolled-up day, which is every intake batch of live payments. Before,
 * it ran its lock and delete statements over the transition table anyway: about 0.13 ms of PostgreSQL per 20-row
 * batch, half of the trigger. Back-dated rows still take the per-merchant locks
 * and drop their days' rollups as before.
 */
export class Migration20261203100000_rollup_insert_fast_path extends Migration {
  override async up(): Promise<void> {
    this.addSql(invalidateInsertedRollups(true));
  }

  override async down(): Promise<void> {
    this.addSql(invalidateInsertedRollups(false));
  }
}

/** The trigger function of 0210, with or without the early return. */
function invalidateInsertedRollups(fastPath: boolean): string {
  const backDated = `(n.transaction_at at time zone 'Asia/Jakarta')::date < cutoff`;
  return `
    create or replace function "transaction".invalidate_inserted_rollups() returns trigger language plpgsql as $$
    declare cutoff date := (now() at time zone 'Asia/Jakarta')::date - 1;
    begin
      ${fastPath ? `if not exists (select from inserted n where ${backDated}) then return null; end if;` : ''}
      perform pg_advisory_xact_lock_shared(hashtext('rollup:' || d.merchant_id::text))
         from (select distinct n.merchant_id from inserted n where ${backDated} order by n.merchant_id) d;
      delete from "transaction".merchant_daily_rollups r
       using (select distinct n.merchant_id, (n.transaction_at at time zone 'Asia/Jakarta')::date as day from inserted n
               where ${backDated}) d
       where r.merchant_id = d.merchant_id and r.day = d.day;
      return null;
    end $$;
  `;
}
