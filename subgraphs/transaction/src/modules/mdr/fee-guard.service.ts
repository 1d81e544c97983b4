import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { BadInputError } from '@lib/errors/app-error';
import { QRIS_CRITERIA, type QrisMerchantCriteria, qrisCriteriaOf } from '@lib/domain/qris/qris-payload';
import { ZonedCalendar, nextMonthStart } from '@lib/time/zoned-time';
import { SETTLEMENT_TIME_ZONE } from '../settlement/settlement.repository';
import { mdrFeeOf, mdrRateAt } from './mdr';
import { MdrRepository, type MdrPolicyRecord } from './mdr.repository';
import { FeeGuardRepository, type OverchargeMonthRow, type RerateAuditRow, type SettlementOverchargeRow } from './fee-guard.repository';

const JAKARTA = new ZonedCalendar(SETTLEMENT_TIME_ZONE);
const MONTH_PATTERN = /^(20[0-9]{2})-(0[1-9]|1[0-2])$/;
/** The longest range of months one read covers. */
export const MAX_MONTHS = 24;
/** The longest period one re-rating covers. */
export const MAX_RERATE_DAYS = 366;

/** A month YYYY-MM (Asia/Jakarta) as its instants [start, next start). */
export function monthBounds(month: string): { from: Date; before: Date } {
  if (!MONTH_PATTERN.test(month)) throw new BadInputError('a month is YYYY-MM');
  return { from: JAKARTA.midnight(`${month}-01`), before: JAKARTA.midnight(nextMonthStart(`${month}-01`)) };
}

/** The months from `from` to `to` (YYYY-MM, inclusive) as instants; default the 12 months up to the current one. */
export function monthRange(from: string | null, to: string | null, now = new Date()): { from: Date; before: Date; months: string[] } {
  const last = to ?? JAKARTA.dateOf(now).slice(0, 7);
  const first = from ?? shiftMonth(last, -11);
  const { before } = monthBounds(last);
  const start = monthBounds(first).from;
  const months: string[] = [];
  for (let m = first; m <= last && months.length <= MAX_MONTHS; m = shiftMonth(m, 1)) months.push(m);
  if (first > last) throw new BadInputError('from must not be after to');
  if (months.length > MAX_MONTHS) throw new BadInputError(`at most ${MAX_MONTHS} months`);
  return { from: start, before, months };
}

function shiftMonth(month: string, by: number): string {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + by);
  return d.toISOString().slice(0, 7);
}

export interface RerateInput {
  merchantId: string;
  from: Date;
  before: Date;
  reason: string;
  requestedBy: string;
  /** The criteria to rate by; default the merchant's business scale as this subgraph's copy holds it now. */
  criteria?: QrisMerchantCriteria;
}

/**
 * The fee guard and the MDR's re-rating (docs/decisions/0240-mdr-policy.md): the bank's reported
 * fees against the policy's, per merchant and month, per settlement; an operator's deliberate re-rating of a period.
 */
export class FeeGuardService {
  private readonly repo: FeeGuardRepository;

  constructor(em: EntityManager) {
    this.repo = new FeeGuardRepository(em);
  }

  /** Every rule of the MDR policy. */
  policy(): Promise<MdrPolicyRecord[]> {
    return this.repo.peer(MdrRepository).policy();
  }

  /** One merchant's figures of every month in the range (zeros for a month without transactions), oldest first. */
  async monthsOfMerchant(merchantId: string, from: string | null, to: string | null): Promise<OverchargeMonthRow[]> {
    const range = monthRange(from, to);
    const rows = await this.repo.months(
      { merchantIds: [merchantId], from: range.from, before: range.before, overchargedOnly: false },
      MAX_MONTHS,
    );
    const byMonth = new Map(rows.map((row) => [row.month, row]));
    return range.months.map((month) => byMonth.get(month) ?? { ...zeroMonth(merchantId), month });
  }

  /** The merchants with an overcharge (transactions or settlements) in a month, highest first. */
  overchargedInMonth(month: string, first: number): Promise<OverchargeMonthRow[]> {
    if (!Number.isInteger(first) || first < 1 || first > 500) throw new BadInputError('first must be 1 to 500');
    const { from, before } = monthBounds(month);
    return this.repo.months({ merchantIds: null, from, before, overchargedOnly: true }, first);
  }

  /** The merchant's flagged settlements of a month, latest first (at most 500). */
  settlementsOfMonth(merchantId: string, month: string): Promise<SettlementOverchargeRow[]> {
    const { from, before } = monthBounds(month);
    return this.repo.settlements(merchantId, from, before, 500);
  }

  /** The merchant's re-ratings, newest first. */
  rerates(merchantId: string, limit = 50): Promise<RerateAuditRow[]> {
    return this.repo.audits(merchantId, Math.min(Math.max(limit, 1), 200));
  }

  /**
   * Re-rates the merchant's rated transactions of [from, before) by the policy in force at each one's time, in one
   * transaction with its audit row: the rate and fee (and net) change where the policy now gives another; every other
   * transaction and period stays as recorded.
   */
  async rerate(input: RerateInput): Promise<RerateAuditRow> {
    if (!(input.before.getTime() > input.from.getTime())) throw new BadInputError('before must be after from');
    if (input.before.getTime() - input.from.getTime() > MAX_RERATE_DAYS * 86_400_000)
      throw new BadInputError(`a re-rating covers at most ${MAX_RERATE_DAYS} days`);
    if (!input.reason.trim()) throw new BadInputError('a reason is required');
    if (!input.requestedBy.trim()) throw new BadInputError('who asks is required');
    if (input.criteria && !QRIS_CRITERIA.includes(input.criteria))
      throw new BadInputError(`criteria must be one of ${QRIS_CRITERIA.join(', ')}`);
    return this.repo.sqlTransaction(async (tx) => {
      const facts = await tx.merchantFacts(input.merchantId);
      if (!facts) throw new BadInputError('the merchant is not known to the transaction subgraph');
      const criteria = input.criteria ?? qrisCriteriaOf(facts.business_scale_code);
      const { policy } = (
        await tx.peer(MdrRepository).ofMerchants([{ merchantId: input.merchantId, categoryCode: facts.category_code }])
      ).get(input.merchantId.toLowerCase())!;
      const rows = await tx.ratedTransactions(input.merchantId, input.from, input.before);
      const rewritten = rows.map((row) => {
        const rate = mdrRateAt({ criteria, policy }, row.gross_amount, new Date(row.at_ms));
        if (rate === undefined) throw new Error('the MDR policy has no rate for this payment');
        return { id: row.id, transaction_at: row.transaction_at, mdr_rate: rate, mdr_fee_amount: mdrFeeOf(row.gross_amount, rate) };
      });
      const changed = rewritten.filter(
        (r, i) => r.mdr_fee_amount !== rows[i].mdr_fee_amount || Number(r.mdr_rate) !== Number(rows[i].mdr_rate),
      );
      await tx.rewriteFees(changed);
      const audit: RerateAuditRow = {
        id: uuidv7(),
        merchant_id: input.merchantId.toLowerCase(),
        period_from: input.from,
        period_before: input.before,
        criteria,
        reason: input.reason.trim(),
        requested_by: input.requestedBy.trim(),
        transactions: rows.length,
        changed: changed.length,
        fee_before: rows.reduce((sum, r) => sum + r.mdr_fee_amount, 0),
        fee_after: rewritten.reduce((sum, r) => sum + r.mdr_fee_amount, 0),
        at: new Date(),
      };
      await tx.audit(audit);
      return audit;
    });
  }
}

function zeroMonth(merchantId: string): OverchargeMonthRow {
  return {
    merchant_id: merchantId,
    month: '',
    transaction_count: 0,
    overcharged_count: 0,
    bank_fee_amount: 0,
    expected_fee_amount: 0,
    overcharge_amount: 0,
    settlements_overcharged: 0,
    settlement_overcharge_amount: 0,
  };
}
