import { Repository } from '@lib/db/repository';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.repository';

/** A counted transaction (docs/scoring.md §2): success, with something left after refunds. */
const COUNTED = `status = 'success' and gross_amount > refunded_amount`;
/** Settlement deadline of a transaction: 00:00 WIB two Jakarta days after its own (docs/scoring.md §4). */
const DEADLINE = `(((transaction_at at time zone '${SETTLEMENT_TIME_ZONE}')::date + 2)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}')`;

/** Counted transactions of one Jakarta day, as read (amount as text). */
export interface DayRow {
  day: string;
  count: number;
  amount: string;
  on_time: number;
  judged: number;
}

/**
 * The scoring aggregates of a merchant: grouped statements over the (merchant_id, transaction_at) index, and the
 * daily rollups (`merchant_daily_rollups`: one row per Jakarta day, invalidated by a trigger).
 */
export class ScoringRepository extends Repository {
  /**
   * Per Jakarta day of [from, before): counted transactions, their amount, those settled on time as of asOf and
   * those that can be judged as of asOf. Deadline of day D: 00:00 WIB of D+2 (exclusive), i.e. settled by the end
   * of D+1. Settled means settled_at ≤ asOf.
   */
  days(merchantId: string, from: Date, before: Date, asOf: Date): Promise<DayRow[]> {
    return this.rows<DayRow>(
      `select to_char(d, 'YYYY-MM-DD') as day, count(*)::int as count, sum(amount)::text as amount,
              count(*) filter (where on_time)::int as on_time,
              count(*) filter (where on_time or deadline <= ?)::int as judged
         from (select t.d, t.amount, t.deadline,
                      (t.settled_at is not null and t.settled_at <= ? and t.settled_at < t.deadline) as on_time
                 from (select (transaction_at at time zone '${SETTLEMENT_TIME_ZONE}')::date as d,
                              gross_amount - refunded_amount as amount, settled_at, ${DEADLINE} as deadline
                         from "transaction".transactions
                        where merchant_id = ? and ${COUNTED} and transaction_at >= ? and transaction_at < ?) t) c
        group by d order by d`,
      [asOf, asOf, merchantId, from, before],
    );
  }

  /** Jakarta month (YYYY-MM) of the merchant's first counted transaction before `before`, or null. */
  async firstCountedMonth(merchantId: string, before: Date): Promise<string | null> {
    const [first] = await this.rows<{ month: string | null }>(
      `select to_char(min(transaction_at) at time zone '${SETTLEMENT_TIME_ZONE}', 'YYYY-MM') as month
         from "transaction".transactions where merchant_id = ? and ${COUNTED} and transaction_at < ?`,
      [merchantId, before],
    );
    return first?.month ?? null;
  }

  /** The first and last day of [from, to] without a rollup row (nulls when every day has one). */
  async rollupGap(merchantId: string, from: string, to: string): Promise<{ first: string | null; last: string | null }> {
    const [gap] = await this.rows<{ first: string | null; last: string | null }>(
      `select to_char(min(d), 'YYYY-MM-DD') as first, to_char(max(d), 'YYYY-MM-DD') as last
         from generate_series(?::date, ?::date, interval '1 day') d
        where not exists (select 1 from "transaction".merchant_daily_rollups r where r.merchant_id = ? and r.day = d::date)`,
      [from, to, merchantId],
    );
    return gap;
  }

  /** Rolled-up days in [from, to] with counted transactions (a rolled-up day is judged whole: judged = count). */
  rolledDays(merchantId: string, from: string, to: string): Promise<DayRow[]> {
    return this.rows<DayRow>(
      `select to_char(day, 'YYYY-MM-DD') as day, count, amount::text as amount, on_time, count as judged
         from "transaction".merchant_daily_rollups
        where merchant_id = ? and day between ?::date and ?::date and count > 0 order by day`,
      [merchantId, from, to],
    );
  }

  /**
   * Computes and stores the days [from, to] (a row for every day, zero ones included, so that "rolled up" is
   * "has a row"); `fromAt` and `beforeAt` are the Jakarta midnights of `from` and of the day after `to`. The
   * exclusive advisory lock waits for writers that hold the trigger's shared lock, and the insert's snapshot is
   * taken after it: a concurrent write either is seen here or deletes the row after.
   */
  async fillRollups(merchantId: string, from: string, to: string, fromAt: Date, beforeAt: Date): Promise<void> {
    await this.sqlTransaction(async (tx) => {
      await tx.rows('select pg_advisory_xact_lock(hashtext(?))', [`rollup:${merchantId}`]);
      await tx.rows(
        `insert into "transaction".merchant_daily_rollups (merchant_id, day, count, amount, on_time)
         select ?, d::date, coalesce(a.count, 0), coalesce(a.amount, 0), coalesce(a.on_time, 0)
           from generate_series(?::date, ?::date, interval '1 day') d
           left join (select (transaction_at at time zone '${SETTLEMENT_TIME_ZONE}')::date as day, count(*) as count,
                             sum(gross_amount - refunded_amount) as amount,
                             count(*) filter (where settled_at is not null and settled_at < ${DEADLINE}) as on_time
                        from "transaction".transactions
                       where merchant_id = ? and ${COUNTED} and transaction_at >= ? and transaction_at < ?
                       group by 1) a on a.day = d::date
         on conflict (merchant_id, day) do nothing`,
        [merchantId, from, to, merchantId, fromAt, beforeAt],
      );
    });
  }
}
