import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError } from '../../../../../lib/errors/app-error';
import { UUID_PATTERN } from '../../../../../lib/federation/loaders';
import { knexOf, rowsOf } from '../../sql';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.service';
import { type DailyAggregate, type ScoringInput, scoreContractA, scoreContractB, scoringWindows } from './scoring';
import type { ScoringAType, ScoringBType } from './scoring.type';

/** A counted transaction (docs/scoring.md §2): success, with something left after refunds. */
const COUNTED = `status = 'success' and gross_amount > refunded_amount`;

/**
 * Reads a merchant's scoring aggregates — two grouped statements over the (merchant_id, transaction_at)
 * index, never the rows themselves — and scores them with the pure functions of scoring.ts.
 */
export class ScoringService {
  constructor(private readonly em: EntityManager) {}

  /** The aggregates of docs/scoring.md §3 for `merchantId` as of `asOf`. */
  async inputOf(merchantId: string, asOf: Date): Promise<ScoringInput> {
    if (Number.isNaN(asOf.getTime())) throw new BadInputError('asOf must be a date-time');
    if (!UUID_PATTERN.test(merchantId)) return { asOf, firstCountedMonth: null, days: [] };
    const w = scoringWindows(asOf);
    const db = knexOf(this.em);
    // Per Jakarta day from the 12-month window's start to the start of asOf's day (this also covers the
    // 180 days of growth_90d: the window starts at least 365 days before asOf's day).
    // Deadline of day D: 00:00 WIB of D+2 (exclusive), i.e. settled by the end of D+1. Settled means settled_at ≤ asOf.
    const days = await rowsOf<{ day: string; count: number; amount: string; on_time: number; judged: number }>(
      db,
      `select to_char(d, 'YYYY-MM-DD') as day, count(*)::int as count, sum(amount)::text as amount,
              count(*) filter (where on_time)::int as on_time,
              count(*) filter (where on_time or deadline <= ?)::int as judged
         from (select t.d, t.amount, t.deadline,
                      (t.settled_at is not null and t.settled_at <= ? and t.settled_at < t.deadline) as on_time
                 from (select (transaction_at at time zone '${SETTLEMENT_TIME_ZONE}')::date as d,
                              gross_amount - refunded_amount as amount, settled_at,
                              (((transaction_at at time zone '${SETTLEMENT_TIME_ZONE}')::date + 2)::timestamp
                                 at time zone '${SETTLEMENT_TIME_ZONE}') as deadline
                         from "transaction".transactions
                        where merchant_id = ? and ${COUNTED} and transaction_at >= ? and transaction_at < ?) t) c
        group by d order by d`,
      [asOf, asOf, merchantId, w.windowStartAt, w.asOfDayStartAt],
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
      days: days.map(
        (row): DailyAggregate => ({ day: row.day, count: row.count, amount: Number(row.amount), onTime: row.on_time, judged: row.judged }),
      ),
    };
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
