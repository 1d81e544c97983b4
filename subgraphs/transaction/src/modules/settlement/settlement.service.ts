import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { Settlement } from './settlement.entity';
import { type NewSettlement, SettlementRepository } from './settlement.repository';
import type { SettlementInput, SettlementResult } from './settlement.type';

const MAX_ID_LENGTH = 128;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Settlement intake. A settlement is stored once per (bank, settlement_id) and once per (bank,
 * external_event_id) — unique constraints, claimed with `insert … on conflict do nothing` — and matched in the
 * same database transaction, so the settlement and the transactions it settled commit together.
 */
export class SettlementService {
  private readonly repo: SettlementRepository;

  constructor(em: EntityManager) {
    this.repo = new SettlementRepository(em);
  }

  /**
   * Stores and reconciles one settlement of `bankCode` (the calling bank principal's). An unknown NMID (no
   * outlet) is stored and rejected with unknown_nmid; a replay of it is attempted again. Otherwise it settles the bank's `success` transactions
   * of that outlet or carrying that NMID whose transaction_at falls on settlement_date in Asia/Jakarta and
   * that no settlement settled yet: settled_at = completedAt, settlement_status settled, settlement_ref = it.
   * Partly refunded transactions are still `success` and match with their full gross; refunded, reversed,
   * failed, cancelled and pending ones never match. A discrepancy (gross − matched) is answered, not refused.
   */
  async record(input: SettlementInput, bankCode: string): Promise<SettlementResult> {
    validateSettlement(input);
    const id = uuidv7();
    const outletId = input.outletId ?? null;
    return this.repo.transactional(async (tx) => {
      const delivery: NewSettlement = {
        id,
        bankCode,
        externalEventId: input.externalEventId,
        settlementId: input.settlementId,
        nmid: input.nmid,
        merchantId: input.merchantId ?? null,
        outletId,
        grossAmount: input.grossAmount,
        mdrTotal: input.mdrTotal,
        netAmount: input.netAmount,
        settlementDate: input.settlementDate,
        completedAt: input.completedAt,
        payload: input.payload,
        status: outletId ? 'success' : 'rejected',
        errorCode: outletId ? null : 'unknown_nmid',
        receivedAt: new Date(),
      };
      let stored = id;
      if (!(await tx.claim(delivery))) {
        // The first settlement with this settlement_id or external_event_id (the insert waited for it to commit),
        // locked: concurrent replays take turns. An applied one is a duplicate. One stored but not applied
        // (unknown_nmid) with the same two ids is a new attempt with this delivery, applied once its NMID
        // resolves (docs/decisions/0028-payment-event-and-settlement-intake.md); one that shares only one of the ids is not this
        // settlement, and answers as a duplicate of it.
        const first = await tx.lockFirst(bankCode, input.settlementId, input.externalEventId);
        const sameSettlement = first.settlementId === input.settlementId && first.externalEventId === input.externalEventId;
        if (first.status !== 'rejected' || !sameSettlement) return resultOf(first, 'duplicate_skipped');
        await tx.replaceAttempt(first.id, delivery);
        stored = first.id;
      }
      if (!outletId) return resultOf(await tx.byId(stored));
      return resultOf(
        await tx.settle(stored, {
          bankCode,
          outletId,
          nmid: input.nmid,
          settlementDate: input.settlementDate,
          completedAt: input.completedAt,
        }),
      );
    });
  }
}

/** Amounts that do not add up, or malformed ids or dates: BAD_USER_INPUT, nothing stored (the adapter checks them too). */
function validateSettlement(input: SettlementInput): void {
  for (const field of ['externalEventId', 'settlementId', 'nmid'] as const) {
    const value = input[field];
    if (value.trim().length === 0 || value.length > MAX_ID_LENGTH)
      throw new BadInputError(`${field} must be 1 to ${MAX_ID_LENGTH} characters`);
  }
  for (const field of ['grossAmount', 'mdrTotal', 'netAmount'] as const) {
    if (input[field] < 0) throw new BadInputError(`${field} must not be negative`);
  }
  if (input.netAmount !== input.grossAmount - input.mdrTotal) throw new BadInputError('netAmount must equal grossAmount - mdrTotal');
  if (!isCalendarDate(input.settlementDate)) throw new BadInputError('settlementDate must be a date, YYYY-MM-DD');
  if (Number.isNaN(input.completedAt?.getTime())) throw new BadInputError('completedAt must be a date-time');
  for (const field of ['outletId', 'merchantId'] as const) {
    const value = input[field];
    if (value != null && !UUID_PATTERN.test(value)) throw new BadInputError(`${field} must be a UUID`);
  }
}

function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The answer; a duplicate repeats the first settlement's (with status duplicate_skipped). */
function resultOf(settlement: Settlement, status: string = settlement.status): SettlementResult {
  const discrepancyAmount = settlement.grossAmount - settlement.matchedAmount;
  return {
    settlementRef: settlement.id,
    status,
    settlementId: settlement.settlementId,
    matchedCount: settlement.matchedCount,
    matchedAmount: settlement.matchedAmount,
    grossAmount: settlement.grossAmount,
    discrepancyAmount,
    // Reconciled: accepted, and what it settled adds up to its gross (also when both are 0).
    reconciled: settlement.status === 'success' && discrepancyAmount === 0,
    errorCode: settlement.errorCode ?? null,
  };
}
