import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { knexOf, rowsOf } from '@subgraphs/transaction/src/sql';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.service';
import {
  type DailyAggregate,
  type ScoringInput,
  addDays,
  jakartaDate,
  jakartaMidnight,
  scoreContractA,
  scoreContractB,
  scoringWindows,
} from './scoring';
import type { ScoringAType, ScoringBType } from './scoring.type';

/** A counted transaction (docs/scoring.md §2): success, with something left after refunds. */
const COUNTED = `status = 'success' and gross_amount > refunded_amount`;
/** Settlement deadline of a transaction: 00:00 WIB two Jakarta days after its own (docs/scoring.md §4). */
const DEADLINE = `(((transaction_at at time zone '${SETTLEMENT_TIME_ZONE}')::date + 2)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}')`;

/**
 * Reads a merchant's scoring aggregates — daily rollups for settled days, grouped statements over the
 * (merchant_id, transaction_at) index for the last ones — and scores them with the pure functions of scoring.ts.
 */
export class ScoringService {
  constructor(private readonly em: EntityManager) {}

  /**
   * The aggregates of docs/scoring.md §3 for `merchantId` as of `asOf`: days whose deadline passed at least a
   * day before asOf come from the daily rollups (filled here when missing), the last days from the
   * transactions themselves. For a rolled-up day D the deadline (00:00 WIB of D+2) is before asOf, so every
   * counted transaction is judged and "on time" no longer depends on asOf: the stored row is exact.
   */
  async inputOf(merchantId: string, asOf: Date): Promise<ScoringInput> {
    if (Number.isNaN(asOf.getTime())) throw new BadInputError('asOf must be a date-time');
    if (!UUID_PATTERN.test(merchantId)) return { asOf, firstCountedMonth: null, days: [] };
    const w = scoringWindows(asOf);
    const db = knexOf(this.em);
    const windowStartDay = jakartaDate(w.windowStartAt);
    // The rollup trigger leaves today and yesterday alone (by the database clock): never roll those up.
    const lastRolled = [addDays(w.asOfDay, -3), addDays(jakartaDate(new Date()), -3)].sort()[0];
    const rolled = lastRolled >= windowStartDay ? await this.rollups(merchantId, windowStartDay, lastRolled) : [];
    const recentFrom = lastRolled >= windowStartDay ? jakartaMidnight(addDays(lastRolled, 1)) : w.windowStartAt;
    // Per Jakarta day from the 12-month window's start to the start of asOf's day (this also covers the
    // 180 days of growth_90d: the window starts at least 365 days before asOf's day).
    // Deadline of day D: 00:00 WIB of D+2 (exclusive), i.e. settled by the end of D+1. Settled means settled_at ≤ asOf.
    const recent = await rowsOf<{ day: string; count: number; amount: string; on_time: number; judged: number }>(
      db,
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
      [asOf, asOf, merchantId, recentFrom, w.asOfDayStartAt],
    );
    const [first] = await rowsOf<{ month: string | null }>(
      db,
      `select to_char(min(transaction_at) at time zone '${SETTLEMENT_TIME_ZONE}', 'YYYY-MM') as month
         from "transaction".transactions where merchant_id = ? and ${COUNTED} and transaction_at < ?`,
      [merchantId, w.windowEndAt],
    );
    return {
      asOf,
      firstCountedMonth: first?.month ?? null,
      days: [...rolled, ...recent].map((row): DailyAggregate => ({
        day: row.day,
        count: row.count,
        amount: Number(row.amount),
        onTime: row.on_time,
        judged: row.judged,
      })),
    };
  }

  /** Rolled-up days in [from, to] with counted transactions; days not rolled up yet are computed and stored first. */
  private async rollups(merchantId: string, from: string, to: string) {
    const db = knexOf(this.em);
    const [gap] = await rowsOf<{ first: string | null; last: string | null }>(
      db,
      `select to_char(min(d), 'YYYY-MM-DD') as first, to_char(max(d), 'YYYY-MM-DD') as last
         from generate_series(?::date, ?::date, interval '1 day') d
        where not exists (select 1 from "transaction".merchant_daily_rollups r where r.merchant_id = ? and r.day = d::date)`,
      [from, to, merchantId],
    );
    if (gap.first && gap.last) await this.fill(merchantId, gap.first, gap.last);
    return rowsOf<{ day: string; count: number; amount: string; on_time: number; judged: number }>(
      db,
      `select to_char(day, 'YYYY-MM-DD') as day, count, amount::text as amount, on_time, count as judged
         from "transaction".merchant_daily_rollups
        where merchant_id = ? and day between ?::date and ?::date and count > 0 order by day`,
      [merchantId, from, to],
    );
  }

  /**
   * Computes and stores the days [from, to] (a row for every day, zero ones included, so that "rolled up" is
   * "has a row"). The exclusive advisory lock waits for writers that hold the trigger's shared lock, and the
   * insert's snapshot is taken after it: a concurrent write either is seen here or deletes the row after.
   */
  private async fill(merchantId: string, from: string, to: string): Promise<void> {
    await this.em.getKnex().transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`rollup:${merchantId}`]);
      await trx.raw(
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
        [merchantId, from, to, merchantId, jakartaMidnight(from), jakartaMidnight(addDays(to, 1))],
      );
    });
  }

  async contractA(merchantId: string, asOf: Date): Promise<ScoringAType> {
    const input = await this.inputOf(merchantId, asOf);
    return { merchantId, ...windowFields(asOf), ...scoreContractA(input) };
  }

  async contractB(merchantId: string, asOf: Date): Promise<ScoringBType> {
    const input = await this.inputOf(merchantId, asOf);
    return { merchantId, ...windowFields(asOf), ...scoreContractB(input) };
  }
}

function windowFields(asOf: Date) {
  const w = scoringWindows(asOf);
  return { asOf, windowStartAt: w.windowStartAt, windowEndAt: w.windowEndAt };
}
