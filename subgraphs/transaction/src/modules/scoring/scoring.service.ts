import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
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
import { ScoringRepository } from './scoring.repository';
import type { ScoringAType, ScoringBType } from './scoring.type';

/**
 * Reads a merchant's scoring aggregates — daily rollups for settled days, grouped statements over the
 * (merchant_id, transaction_at) index for the last ones — and scores them with the pure functions of scoring.ts.
 */
export class ScoringService {
  private readonly repo: ScoringRepository;

  constructor(em: EntityManager) {
    this.repo = new ScoringRepository(em);
  }

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
    const windowStartDay = jakartaDate(w.windowStartAt);
    // The rollup trigger leaves today and yesterday alone (by the database clock): never roll those up.
    const lastRolled = [addDays(w.asOfDay, -3), addDays(jakartaDate(new Date()), -3)].sort()[0];
    const rolled = lastRolled >= windowStartDay ? await this.rollups(merchantId, windowStartDay, lastRolled) : [];
    const recentFrom = lastRolled >= windowStartDay ? jakartaMidnight(addDays(lastRolled, 1)) : w.windowStartAt;
    // Per Jakarta day from the 12-month window's start to the start of asOf's day (this also covers the
    // 180 days of growth_90d: the window starts at least 365 days before asOf's day).
    const recent = await this.repo.days(merchantId, recentFrom, w.asOfDayStartAt, asOf);
    const firstCountedMonth = await this.repo.firstCountedMonth(merchantId, w.windowEndAt);
    return {
      asOf,
      firstCountedMonth,
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
    const gap = await this.repo.rollupGap(merchantId, from, to);
    if (gap.first && gap.last) await this.fill(merchantId, gap.first, gap.last);
    return this.repo.rolledDays(merchantId, from, to);
  }

  /** Computes and stores the days [from, to] (ScoringRepository.fillRollups). */
  private async fill(merchantId: string, from: string, to: string): Promise<void> {
    await this.repo.fillRollups(merchantId, from, to, jakartaMidnight(from), jakartaMidnight(addDays(to, 1)));
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
