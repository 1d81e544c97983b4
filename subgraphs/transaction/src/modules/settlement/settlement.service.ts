import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { BadInputError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { knexOf, rowsOf } from '@subgraphs/transaction/src/sql';
import { Settlement } from './settlement.entity';
import type { SettlementInput, SettlementResult } from './settlement.type';

/** The zone of settlement business dates (psp-api.md: banks settle per Indonesian western-time day). */
export const SETTLEMENT_TIME_ZONE = 'Asia/Jakarta';
const MAX_ID_LENGTH = 128;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Settlement intake. A settlement is stored once per (bank, settlement_id) and once per (bank,
 * external_event_id) — unique constraints, claimed with `insert … on conflict do nothing` — and matched in the
 * same database transaction, so the settlement and the transactions it settled commit together.
 */
export class SettlementService {
  constructor(private readonly em: EntityManager) {}

  /**
   * Stores and reconciles one settlement of `bankCode` (the calling bank principal's). An unknown NMID (no
   * outlet) is stored and rejected with unknown_nmid. Otherwise it settles the bank's `success` transactions
   * of that outlet or carrying that NMID whose transaction_at falls on settlement_date in Asia/Jakarta and
   * that no settlement settled yet: settled_at = completedAt, settlement_status settled, settlement_ref = it.
   * Partly refunded transactions are still `success` and match with their full gross; refunded, reversed,
   * failed, cancelled and pending ones never match. A discrepancy (gross − matched) is answered, not refused.
   */
  async record(input: SettlementInput, bankCode: string): Promise<SettlementResult> {
    validateSettlement(input);
    const id = uuidv7();
    const outletId = input.outletId ?? null;
    return this.em.transactional(async (em) => {
      const db = knexOf(em);
      const claimed = await db('transaction.settlements')
        .insert({
          id,
          bank_code: bankCode,
          external_event_id: input.externalEventId,
          settlement_id: input.settlementId,
          nmid: input.nmid,
          merchant_id: input.merchantId ?? null,
          outlet_id: outletId,
          gross_amount: input.grossAmount,
          mdr_total: input.mdrTotal,
          net_amount: input.netAmount,
          settlement_date: input.settlementDate,
          completed_at: input.completedAt,
          payload: JSON.stringify(input.payload),
          status: outletId ? 'success' : 'rejected',
          error_code: outletId ? null : 'unknown_nmid',
          received_at: new Date(),
        })
        // No conflict target: either unique pair (or both) makes it a replay.
        .onConflict()
        .ignore()
        .returning('id');
      if (claimed.length === 0) {
        // The first settlement with this settlement_id or external_event_id (the insert waited for it to commit).
        const [first] = await rowsOf(
          db,
          `select ${SETTLEMENT_COLUMNS} from "transaction".settlements
            where bank_code = ? and (settlement_id = ? or external_event_id = ?) order by received_at, id limit 1`,
          [bankCode, input.settlementId, input.externalEventId],
        );
        return resultOf(em.map(Settlement, first), 'duplicate_skipped');
      }
      if (!outletId) {
        const [row] = await rowsOf(db, `select ${SETTLEMENT_COLUMNS} from "transaction".settlements where id = ?`, [id]);
        return resultOf(em.map(Settlement, row));
      }
      // The Jakarta day as UTC bounds, by PostgreSQL's time-zone database: [midnight, next midnight).
      // Concurrent settlements of the same day each re-check settlement_status on the locked rows: one wins each.
      const [row] = await rowsOf(
        db,
        `with settled as (
           update "transaction".transactions
              set settlement_status = 'settled', settled_at = ?, settlement_ref = ?, updated_at = now()
            where bank_code = ? and status = 'success' and settlement_status = 'unsettled'
              and (outlet_id = ? or nmid = ?)
              and transaction_at >= (?::date)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}'
              and transaction_at < (?::date + 1)::timestamp at time zone '${SETTLEMENT_TIME_ZONE}'
           returning gross_amount
         )
         update "transaction".settlements
            set matched_count = (select count(*) from settled), matched_amount = (select coalesce(sum(gross_amount), 0) from settled)
          where id = ?
         returning ${SETTLEMENT_COLUMNS}`,
        [input.completedAt, id, bankCode, outletId, input.nmid, input.settlementDate, input.settlementDate, id],
      );
      return resultOf(em.map(Settlement, row));
    });
  }
}

const SETTLEMENT_COLUMNS = [
  'id',
  'bank_code',
  'external_event_id',
  'settlement_id',
  'nmid',
  'merchant_id',
  'outlet_id',
  'gross_amount',
  'mdr_total',
  'net_amount',
  `to_char(settlement_date, 'YYYY-MM-DD') as settlement_date`,
  'completed_at',
  'payload',
  'status',
  'error_code',
  'matched_count',
  'matched_amount',
  'received_at',
].join(', ');

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
