import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '@lib/auth/principal';
import { TILL_CASH_DIFFERENCE_TASK, type TillCashDifferencePayload } from '@lib/domain/jobs/tasks';
import { assertUserMay, readVisibility } from '@lib/domain/access/user-scope';
import { pgTime } from '@lib/db/sync-pull';
import { AppError, ErrorCode } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { ZonedCalendar, addDays } from '@lib/time/zoned-time';
import { PosInputError, PosNotFoundError, optionalText, requireInt } from '../pos/pos.errors';
import { type TillCloseListQuery, TillCloseRepository, type TillCloseRow } from './till-close.repository';
import type { TillCloseInput, TillCloseType } from './till-close.type';

/** The business day is the app's: a calendar day in Asia/Makassar, as the periods of GET /merchant/transactions (core-api.md §4). */
export const TILL_ZONE = new ZonedCalendar('Asia/Makassar');
/** Whole rupiah a drawer can hold: up to one trillion. */
const MAX_CASH = 1_000_000_000_000;
const MAX_SHIFT_MS = 24 * 3600_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const TILL_LIST_DEFAULT = 50;
export const TILL_LIST_MAX = 200;

export interface TillCloseFilter {
  outletId?: string | null;
  from?: Date | null;
  before?: Date | null;
  limit?: number | null;
  offset?: number | null;
}

/**
 * Till closes of one merchant (docs/decisions/0057-sales-orders-and-receipt-numbers.md): the close of an outlet's business day or of a
 * cashier's shift, made of the figures of the outlet's sales orders transacted in its window, the cash counted, and
 * the difference; a difference enqueues the owners' push with the close (the merchant process sends it).
 */
export class TillCloseService {
  private readonly repo: TillCloseRepository;

  constructor(em: EntityManager) {
    this.repo = new TillCloseRepository(em);
  }

  /**
   * Closes the day or the shift. Under the merchant's close lock: an Idempotency-Key used before answers the close it
   * made (the same request) or CONFLICT idempotency_key_reused (another); a second close of the day, or a shift of the
   * same cashier at the outlet that overlaps another, is CONFLICT till_already_closed. The caller's role is checked
   * by the resolver (the sell family on the outlet).
   */
  async close(principal: Principal, merchantId: string, input: TillCloseInput, now = new Date()): Promise<TillCloseType> {
    if (!UUID_PATTERN.test(input.outletId)) throw new PosInputError('outlet_id must be a UUID');
    const outletId = input.outletId.toLowerCase();
    const countedCash = requireInt('counted_cash', input.countedCash, 0, MAX_CASH);
    const openingFloat = input.openingFloat == null ? 0 : requireInt('opening_float', input.openingFloat, 0, MAX_CASH);
    const cashierName = optionalText('cashier_name', input.cashierName, 100);
    const note = optionalText('note', input.note, 500);
    const key = input.idempotencyKey ?? null;
    if (key !== null && !/^[\x21-\x7E]{1,255}$/.test(key))
      throw new PosInputError('Idempotency-Key must be 1 to 255 visible ASCII characters');
    const window = windowOf(input, now);
    const cashierUserId = principal.kind === 'user' ? principal.userId : null;
    const requestHash = createHash('sha256')
      .update(
        JSON.stringify([
          outletId,
          input.kind,
          input.businessDay ?? null,
          input.shiftStart?.toISOString() ?? null,
          input.shiftEnd?.toISOString() ?? null,
          cashierUserId,
          cashierName,
          countedCash,
          openingFloat,
          note,
        ]),
      )
      .digest('hex');

    return this.repo.sqlTransaction(async (tx) => {
      await tx.lockMerchant(merchantId);
      if (key !== null) {
        const earlier = await tx.byIdempotencyKey(merchantId, key);
        if (earlier) {
          if (earlier.request_hash !== requestHash)
            throw new AppError('the Idempotency-Key was used for another request', ErrorCode.CONFLICT, {
              reason: 'idempotency_key_reused',
            });
          return toTillClose(earlier, true);
        }
      }
      const taken =
        window.businessDay !== null
          ? await tx.dayClose(merchantId, outletId, window.businessDay)
          : await tx.overlappingShift(merchantId, outletId, { userId: cashierUserId, name: cashierName }, window.start, window.end);
      if (taken)
        throw new AppError(
          window.businessDay !== null ? 'the outlet’s day is closed already' : 'a close of this cashier’s shift overlaps that window',
          ErrorCode.CONFLICT,
          { reason: 'till_already_closed' },
        );
      const f = await tx.figures(merchantId, outletId, window.start, window.end);
      const expectedCash = openingFloat + Number(f.cash_amount) - Number(f.change_amount);
      const row = await tx.insert({
        id: uuidv7(),
        merchant_id: merchantId,
        outlet_id: outletId,
        kind: window.businessDay !== null ? 'day' : 'shift',
        business_day: window.businessDay,
        cashier_user_id: cashierUserId,
        cashier_name: cashierName,
        period_start: window.start,
        period_end: window.end,
        opening_float: String(openingFloat),
        expected_cash: String(expectedCash),
        counted_cash: String(countedCash),
        cash_difference: String(countedCash - expectedCash),
        order_count: Number(f.order_count),
        sales_amount: String(f.sales_amount),
        change_amount: String(f.change_amount),
        qris_matched_amount: String(f.qris_matched_amount),
        qris_matched_count: Number(f.qris_matched_count),
        qris_unconfirmed_amount: String(f.qris_unconfirmed_amount),
        sales_by_method: f.sales_by_method,
        sales_by_category: f.sales_by_category,
        void_count: Number(f.void_count),
        void_amount: String(f.void_amount),
        note,
        closed_by:
          principal.kind === 'user' ? `user:${principal.userId}` : `service:${principal.kind === 'internal' ? principal.service : '?'}`,
        idempotency_key: key,
        request_hash: requestHash,
        created_at: now,
      });
      const close = toTillClose(row, false);
      if (close.cashDifference !== 0) await tx.enqueue([cashDifferenceJob(close)]);
      return close;
    });
  }

  /** The merchant's closes, newest first; a member sees its outlets' only (FORBIDDEN for an outlet outside them). */
  async list(principal: Principal, merchantId: string, filter: TillCloseFilter): Promise<TillCloseType[]> {
    if (filter.outletId != null && !UUID_PATTERN.test(filter.outletId)) throw new PosInputError('outlet_id must be a UUID');
    const visibility = readVisibility(principal, { merchantId, outletId: filter.outletId });
    const query: TillCloseListQuery = {
      outletId: filter.outletId?.toLowerCase() ?? null,
      from: filter.from ?? null,
      before: filter.before ?? null,
      limit: filter.limit == null ? TILL_LIST_DEFAULT : requireInt('limit', filter.limit, 1, TILL_LIST_MAX),
      offset: filter.offset == null ? 0 : requireInt('offset', filter.offset, 0, 1_000_000),
    };
    const rows = await this.repo.list(merchantId, visibility?.outletIds ?? null, query);
    return rows.map((r) => toTillClose(r, false));
  }

  /** One close of the merchant; a member needs its outlet (FORBIDDEN otherwise). */
  async get(principal: Principal, merchantId: string, id: string): Promise<TillCloseType> {
    const row = UUID_PATTERN.test(id) ? await this.repo.byId(merchantId, id.toLowerCase()) : undefined;
    if (!row) throw new PosNotFoundError('till close');
    assertUserMay(principal, 'read', { outletId: row.outlet_id });
    return toTillClose(row, false);
  }
}

/**
 * The window of a close. A day: the business day's 00:00 in Asia/Makassar to the next 00:00, or to now while the day
 * is not over (a day is closed at its end, usually before midnight); not a day to come. A shift: [shiftStart,
 * shiftEnd ?? now), at most 24 hours, not ending in the future.
 */
function windowOf(input: TillCloseInput, now: Date): { businessDay: string | null; start: Date; end: Date } {
  if (input.kind === 'day') {
    if (input.shiftStart != null || input.shiftEnd != null) throw new PosInputError('shift_start and shift_end are for kind shift');
    const day = input.businessDay ?? TILL_ZONE.dateOf(now);
    if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day)
      throw new PosInputError('business_day must be a date (YYYY-MM-DD)');
    const start = TILL_ZONE.midnight(day);
    const dayEnd = TILL_ZONE.midnight(addDays(day, 1));
    const end = dayEnd < now ? dayEnd : now;
    if (start >= end) throw new PosInputError('business_day must not be a day to come');
    return { businessDay: day, start, end };
  }
  if (input.kind !== 'shift') throw new PosInputError('kind must be day or shift');
  if (input.businessDay != null) throw new PosInputError('business_day is for kind day');
  if (input.shiftStart == null) throw new PosInputError('shift_start is required for kind shift');
  const end = input.shiftEnd ?? now;
  if (end > now) throw new PosInputError('shift_end must not be in the future');
  if (input.shiftStart >= end) throw new PosInputError('shift_start must be before shift_end');
  if (end.getTime() - input.shiftStart.getTime() > MAX_SHIFT_MS) throw new PosInputError('a shift is at most 24 hours');
  return { businessDay: null, start: input.shiftStart, end };
}

function cashDifferenceJob(close: TillCloseType) {
  const payload: TillCashDifferencePayload = {
    close_id: close.id,
    merchant_id: close.merchantId,
    outlet_id: close.outletId,
    kind: close.kind as 'day' | 'shift',
    business_day: close.businessDay,
    cashier_name: close.cashierName,
    period_start: close.periodStart.toISOString(),
    period_end: close.periodEnd.toISOString(),
    expected_cash: close.expectedCash,
    counted_cash: close.countedCash,
    cash_difference: close.cashDifference,
  };
  return { task: TILL_CASH_DIFFERENCE_TASK, payload, jobKey: `till_close.cash_difference:${close.id}` };
}

export function toTillClose(row: TillCloseRow, idempotentReplay: boolean): TillCloseType {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    outletId: row.outlet_id,
    kind: row.kind,
    businessDay: row.business_day,
    cashierUserId: row.cashier_user_id,
    cashierName: row.cashier_name,
    periodStart: pgTime(row.period_start),
    periodEnd: pgTime(row.period_end),
    openingFloat: Number(row.opening_float),
    expectedCash: Number(row.expected_cash),
    countedCash: Number(row.counted_cash),
    cashDifference: Number(row.cash_difference),
    orderCount: row.order_count,
    salesAmount: Number(row.sales_amount),
    changeAmount: Number(row.change_amount),
    qrisMatchedAmount: Number(row.qris_matched_amount),
    qrisMatchedCount: row.qris_matched_count,
    qrisUnconfirmedAmount: Number(row.qris_unconfirmed_amount),
    salesByMethod: row.sales_by_method.map((m) => ({ method: m.method, orderCount: Number(m.order_count), amount: Number(m.amount) })),
    salesByCategory: row.sales_by_category.map((c) => ({
      categoryId: c.category_id,
      categoryName: c.category_name,
      quantity: Number(c.quantity),
      amount: Number(c.amount),
    })),
    voidCount: row.void_count,
    voidAmount: Number(row.void_amount),
    note: row.note,
    createdAt: pgTime(row.created_at),
    idempotentReplay,
  };
}
