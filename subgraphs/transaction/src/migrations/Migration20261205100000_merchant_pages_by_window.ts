import { Migration } from '@mikro-orm/migrations';

/** The function's signature, unchanged (`create or replace` keeps its callers' grants and plans valid). */
const SIGNATURE = `
      create or replace function "transaction".merchant_pages(merchant_ids uuid[], per_merchant int, statuses text[] default null,
          from_at timestamptz default null, to_at timestamptz default null, before_at timestamptz default null,
          after_at timestamptz default null, after_id uuid default null, outlet uuid default null, outlet_ids uuid[] default null,
          terminal uuid default null)
        returns setof "transaction".transactions
      language plpgsql stable set enable_sort = off set jit = off as $$`;
/** The lateral statement's start (declared as `q`), and the filters given appended to it, as before this migration. */
const STATEMENT = `
        q text := 'select p.* from unnest($1) as m(merchant_key) cross join lateral '
               || '(select t.* from "transaction".transactions t where t.merchant_id = m.merchant_key';`;
const FILTERS = `
        if statuses is not null then q := q || ' and t.status = any($3)'; end if;
        if from_at is not null then q := q || ' and t.transaction_at >= $4'; end if;
        if to_at is not null then q := q || ' and t.transaction_at <= $5'; end if;
        if before_at is not null then q := q || ' and t.transaction_at < $6'; end if;
        if after_at is not null then q := q || ' and (t.transaction_at, t.id) < ($7, $8)'; end if;
        if outlet is not null then q := q || ' and t.outlet_id = $9'; end if;
        if outlet_ids is not null then q := q || ' and t.outlet_id = any($10)'; end if;
        if terminal is not null then q := q || ' and t.terminal_id = $11'; end if;`;

/**
 * `"transaction".merchant_pages` reads one merchant's page in windows of months, newest first
 * (docs/decisions/0018-transaction-lists-and-paging.md). A statement over the whole table is planned on every
 * partition (about 19 for 13 months kept, three ahead and the two catch-alls), and EXECUTE plans at every call: for
 * the newest 500 rows of a busy merchant, planning cost PostgreSQL about three times the reading. A window bounded by
 * month starts is planned on its own months only.
 *
 * For one merchant, without a lower bound below the window's: the month of the newest bound given (to_at,
 * before_at, after_at; else now) and everything after it, then the month before, then the two before that, then
 * four, eight, and last everything older. Each window is read newest first with the rows still missing as its limit,
 * and the walk stops at the limit or at from_at. The windows are disjoint and cover all time, so the rows are those
 * one statement over the table returns. Several merchants are still read in one statement (a lateral limit each).
 */
export class Migration20261205100000_merchant_pages_by_window extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
${SIGNATURE}
      declare
${STATEMENT}
        window_query text;
        ordered constant text := ' order by t.transaction_at desc, t.id desc limit $2) p';
        newest_month date;
        months int := 1;
        lo timestamptz;
        hi timestamptz;
        missing int := per_merchant;
        got int;
      begin
${FILTERS}
        if cardinality(merchant_ids) is distinct from 1 or per_merchant is null or per_merchant < 1 then
          return query execute q || ordered using merchant_ids, per_merchant, statuses, from_at, to_at, before_at, after_at, after_id,
            outlet, outlet_ids, terminal;
          return;
        end if;
        newest_month := date_trunc('month', coalesce(least(to_at, before_at - interval '1 microsecond', after_at), now()) at time zone 'Asia/Jakarta')::date;
        lo := "transaction".month_start(newest_month);
        loop
          window_query := q;
          if lo is not null then window_query := window_query || ' and t.transaction_at >= $12'; end if;
          if hi is not null then window_query := window_query || ' and t.transaction_at < $13'; end if;
          return query execute window_query || ordered using merchant_ids, missing, statuses, from_at, to_at, before_at, after_at,
            after_id, outlet, outlet_ids, terminal, lo, hi;
          get diagnostics got = row_count;
          missing := missing - got;
          exit when missing <= 0 or lo is null or (from_at is not null and lo <= from_at);
          hi := lo;
          lo := case when months <= 8 then "transaction".month_start((newest_month - make_interval(months => 2 * months - 1))::date) end;
          months := months * 2;
        end loop;
      end $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
${SIGNATURE}
      declare
${STATEMENT}
      begin
${FILTERS}
        q := q || ' order by t.transaction_at desc, t.id desc limit $2) p';
        return query execute q using merchant_ids, per_merchant, statuses, from_at, to_at, before_at, after_at, after_id, outlet,
          outlet_ids, terminal;
      end $$;
    `);
  }
}
