import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { type Principal } from '@lib/auth/principal';
import { assertUserMay } from '@lib/domain/access/user-scope';
import { AppError, BadInputError, ErrorCode, ForbiddenError, NotFoundError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import { QRIS_MAX_AMOUNT, dynamicFromStatic, outletStaticQris } from '@lib/domain/qris/qris-payload';
import { decodeIdCursor, encodeIdCursor, keysetPage } from '@lib/db/keyset';
import { type NewPaymentFeedRow, PaymentFeedRepository } from '../payment-feed/payment-feed.repository';
import { PaymentTargetRepository } from '../payment-target/payment-target.repository';
import { type QrisPaymentRow, QrisPaymentRepository, type UnmatchedReason } from './qris-payment.repository';
import type { CreateQrisPaymentInput, QrisPaymentType, QrisSalesOrderInput, QrisUnmatchedPaymentPageType } from './qris-payment.type';

export const DEFAULT_EXPIRY_SECS = 900;
export const MIN_EXPIRY_SECS = 60;
export const MAX_EXPIRY_SECS = 86_400;

/** Bill numbers: "QR" and 14 Crockford base-32 characters (70 random bits); unique over all merchants (index). */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const BILL_NUMBER_PATTERN = /^QR[0-9A-HJKMNP-TV-Z]{14}$/;

export function newBillNumber(): string {
  return `QR${[...randomBytes(14)].map((b) => CROCKFORD[b & 31]).join('')}`;
}

/**
 * Dynamic QRIS per sale: a payment intent with its own payload (point of initiation 12, amount in 54, bill number
 * in 62.01), settled by a bank's success event in the intake transaction (`matchQrisPayment`).
 */
export class QrisPaymentService {
  private readonly repo: QrisPaymentRepository;
  private readonly targets: PaymentTargetRepository;

  /** `signal`: told the merchant whose live feed got a row (a cancellation), after the commit (feed-signal.ts). */
  constructor(
    em: EntityManager,
    private readonly signal?: (merchantIds: Iterable<string>) => void,
  ) {
    this.repo = new QrisPaymentRepository(em);
    this.targets = new PaymentTargetRepository(em);
  }

  /**
   * Creates the payment for `merchantId` at one of its outlets. The outlet's merchant, NMID and static QRIS come from
   * this subgraph's copy of payment targets (docs/decisions/0028-payment-event-and-settlement-intake.md), never from the caller:
   * another merchant's outlet is FORBIDDEN, an outlet the copy holds no static QRIS of is CONFLICT qris_unavailable
   * (docs/decisions/0201-qris-payloads.md). With an Idempotency-Key, the same key and body return the payment created
   * first (`idempotentReplay`); the same key with another body is CONFLICT idempotency_key_reused. Concurrent requests
   * with one key create one payment (unique index).
   *
   * A payment for a sales order (`salesOrder`: the order as the catalog answered the caller) needs an open order of the
   * same outlet and the amount left to pay on it (total − paid), and no other live (pending, unexpired) payment of the
   * order: checked under a lock on the order id, after a replay is answered, so two racing requests cannot both create
   * one. These checks give the documented answers; the guard is the catalog's, which checks the order again when the
   * payment settles it (0201, "Sales orders").
   */
  async create(principal: Principal, merchantId: string, input: CreateQrisPaymentInput): Promise<QrisPaymentType> {
    if (!UUID_PATTERN.test(input.outletId)) throw new BadInputError('outletId must be a UUID');
    if (!Number.isSafeInteger(input.amount) || input.amount < 1 || input.amount > QRIS_MAX_AMOUNT)
      throw new BadInputError(`amount must be a whole number of rupiah from 1 to ${QRIS_MAX_AMOUNT}`);
    const expiresIn = input.expiresInSecs ?? DEFAULT_EXPIRY_SECS;
    if (!Number.isInteger(expiresIn) || expiresIn < MIN_EXPIRY_SECS || expiresIn > MAX_EXPIRY_SECS)
      throw new BadInputError(`expires_in_secs must be ${MIN_EXPIRY_SECS} to ${MAX_EXPIRY_SECS}`);
    if (input.salesOrderId != null && !UUID_PATTERN.test(input.salesOrderId)) throw new BadInputError('salesOrderId must be a UUID');
    if (input.salesOrderId != null && input.salesOrder == null) throw new BadInputError('salesOrder is required with salesOrderId');
    const key = input.idempotencyKey ?? null;
    if (key !== null && !/^[\x21-\x7E]{1,255}$/.test(key))
      throw new BadInputError('Idempotency-Key must be 1 to 255 visible ASCII characters');
    const outletId = input.outletId.toLowerCase();
    const target = await this.targets.ofOutlet(outletId);
    if (target && target.merchant_id !== merchantId) throw new ForbiddenError('the outlet is not the merchant’s');
    if (!target) throw new AppError('the outlet has no QRIS (no NMID)', ErrorCode.CONFLICT, { reason: 'qris_unavailable' });
    const staticPayload = outletStaticQris({
      nmid: target.nmid,
      correction: target.qris_static_payload,
      city: target.city,
      postalCode: target.postal_code,
      merchant: {
        name: target.merchant_name,
        categoryCode: target.category_code,
        businessScaleCode: target.business_scale_code,
        city: target.address_city,
        postalCode: target.address_postal_code,
      },
    });
    if (!staticPayload)
      throw new AppError('the outlet has no static QRIS (no merchant name or MCC)', ErrorCode.CONFLICT, { reason: 'qris_unavailable' });

    const salesOrderId = input.salesOrderId?.toLowerCase() ?? null;
    const requestHash = createHash('sha256')
      .update(JSON.stringify([outletId, input.amount, salesOrderId, expiresIn]))
      .digest('hex');
    if (key !== null) {
      const earlier = await this.repo.byIdempotencyKey(merchantId, key);
      if (earlier) return replayOf(earlier, requestHash);
    }
    const billNumber = newBillNumber();
    const row = {
      id: uuidv7(),
      merchant_id: merchantId,
      outlet_id: outletId,
      nmid: target.nmid,
      amount: input.amount,
      bill_number: billNumber,
      qris_payload: dynamicFromStatic(staticPayload, input.amount, billNumber),
      sales_order_id: salesOrderId,
      idempotency_key: key,
      request_hash: requestHash,
      created_by_user_id: principal.kind === 'user' ? principal.userId : null,
    };
    const inserted = await this.repo.sqlTransaction(async (tx) => {
      if (salesOrderId !== null) {
        await tx.lockSalesOrder(salesOrderId);
        // Under the order's lock: a request with the same key that won meanwhile is a replay, not a second payment.
        const earlier = key === null ? undefined : await tx.byIdempotencyKey(merchantId, key);
        if (earlier) return earlier;
        checkSalesOrder(input.salesOrder!, outletId, input.amount);
        const live = await tx.livePaymentOfOrder(merchantId, salesOrderId);
        if (live)
          throw new AppError(`the sales order already has a pending QRIS payment (${live.id}); cancel it first`, ErrorCode.CONFLICT, {
            reason: 'sales_order_payment_pending',
          });
      }
      const now = new Date();
      return tx.insertUnlessKeyTaken({ ...row, expires_at: new Date(now.getTime() + expiresIn * 1000), created_at: now });
    });
    if (inserted && inserted.id === row.id) return toQrisPayment(inserted, false);
    // A concurrent request with the same key won the insert.
    return replayOf(inserted ?? (await this.repo.byIdempotencyKey(merchantId, key!))!, requestHash);
  }

  /** The merchant's payment; NOT_FOUND for another merchant's or an unknown one; a user needs its outlet in scope. */
  async get(principal: Principal, merchantId: string, id: string): Promise<QrisPaymentType> {
    const row = UUID_PATTERN.test(id) ? await this.repo.byId(merchantId, id.toLowerCase()) : undefined;
    if (!row) throw new NotFoundError('QRIS payment');
    assertUserMay(principal, 'read', { outletId: row.outlet_id });
    return toQrisPayment(row, false);
  }

  /**
   * Cancels a pending payment (one past its expiry too): status `cancelled`, and a `qris_payment.cancelled` row on
   * the live feed in the same transaction, so its open streams end with `cancelled`. Idempotent: a cancelled one is
   * answered as it is. A paid one is CONFLICT qris_payment_paid. The row is locked, so a bank event settling it at
   * the same moment either comes first (then: paid, 409) or finds it cancelled (then: an unmatched payment,
   * reason cancelled). Users need the sell family on the payment's outlet.
   */
  async cancel(principal: Principal, merchantId: string, id: string): Promise<QrisPaymentType> {
    const found = UUID_PATTERN.test(id) ? await this.repo.byId(merchantId, id.toLowerCase()) : undefined;
    if (!found) throw new NotFoundError('QRIS payment');
    assertUserMay(principal, 'sell', { outletId: found.outlet_id });
    let appended = false;
    const row = await this.repo.transactional(async (tx) => {
      const payment = (await tx.lockById(merchantId, found.id))!;
      if (payment.status === 'paid')
        throw new AppError('the QRIS payment is paid and cannot be cancelled', ErrorCode.CONFLICT, { reason: 'qris_payment_paid' });
      if (payment.status === 'cancelled') return payment;
      const cancelled = (await tx.markCancelled(payment.id))!;
      // Last: the feed's append lock is held until the commit (payment-feed.repository.ts).
      await tx.peer(PaymentFeedRepository).append([cancellationFeedRow(cancelled)]);
      appended = true;
      return cancelled;
    });
    if (appended) this.signal?.([merchantId]);
    return toQrisPayment(row, false);
  }

  /** Unmatched payments for reconciliation (operators), newest first, keyset-paged. */
  async unmatched(filter: {
    merchantId?: string | null;
    outletId?: string | null;
    reason?: string | null;
    from?: Date | null;
    before?: Date | null;
    first: number;
    after?: string | null;
  }): Promise<QrisUnmatchedPaymentPageType> {
    if (!Number.isInteger(filter.first) || filter.first < 1 || filter.first > 500) throw new BadInputError('first must be 1 to 500');
    for (const field of ['merchantId', 'outletId'] as const) {
      const value = filter[field];
      if (value != null && !UUID_PATTERN.test(value)) throw new BadInputError(`${field} must be a UUID`);
    }
    if (filter.reason != null && !(UNMATCHED_REASONS as readonly string[]).includes(filter.reason))
      throw new BadInputError(`reason must be one of ${UNMATCHED_REASONS.join(', ')}`);
    const rows = await this.repo.listUnmatched({
      merchantId: filter.merchantId?.toLowerCase() ?? null,
      outletId: filter.outletId?.toLowerCase() ?? null,
      reason: filter.reason ?? null,
      from: filter.from ?? null,
      before: filter.before ?? null,
      afterId: filter.after ? decodeIdCursor(filter.after) : null,
      limit: filter.first + 1,
    });
    const { page, nextCursor } = keysetPage(rows, filter.first, (r) => encodeIdCursor(r.id));
    return {
      nextCursor,
      items: page.map((r) => ({
        id: r.id,
        reason: r.reason,
        billNumber: r.bill_number,
        grossAmount: r.gross_amount == null ? null : Number(r.gross_amount),
        bankCode: r.bank_code,
        nmid: r.nmid,
        merchantId: r.merchant_id,
        outletId: r.outlet_id,
        qrisPaymentId: r.qris_payment_id,
        paymentEventId: r.payment_event_id,
        transactionId: r.transaction_id,
        transactionAt: new Date(r.transaction_at),
        createdAt: new Date(r.created_at),
      })),
    };
  }
}

export const UNMATCHED_REASONS = [
  'unknown_bill_number',
  'other_outlet',
  'amount_mismatch',
  'expired',
  'cancelled',
  'already_paid',
] as const;

/**
 * A payment for a sales order: the order (as the catalog answered it) must be of the payment's outlet, open, and
 * the amount what is left to pay on it; otherwise the request contradicts the order (400) or the order's state
 * (409 sales_order_not_open).
 */
function checkSalesOrder(order: QrisSalesOrderInput, outletId: string, amount: number): void {
  if (order.outletId.toLowerCase() !== outletId) throw new BadInputError('the sales order belongs to another outlet');
  if (order.status !== 'open')
    throw new AppError(`the sales order is ${order.status}, not open`, ErrorCode.CONFLICT, { reason: 'sales_order_not_open' });
  const outstanding = order.totalAmount - order.paidAmount;
  if (amount !== outstanding) throw new BadInputError(`amount must be what is left to pay on the sales order: ${outstanding}`);
}

/** The feed row of a cancelled payment: no transaction, no bank; its amount and outlet. */
function cancellationFeedRow(p: QrisPaymentRow): NewPaymentFeedRow {
  return {
    kind: 'qris_payment.cancelled',
    merchant_id: p.merchant_id,
    outlet_id: p.outlet_id,
    terminal_id: null,
    transaction_id: null,
    transaction_code: null,
    reference_number: null,
    bank_code: null,
    nmid: p.nmid,
    amount: p.amount,
    transaction_at: null,
    qris_payment_id: p.id,
    bill_number: p.bill_number,
    sales_order_id: p.sales_order_id,
  };
}

function replayOf(earlier: QrisPaymentRow, requestHash: string): QrisPaymentType {
  if (earlier.request_hash !== requestHash)
    throw new AppError('the Idempotency-Key was used for another request', ErrorCode.CONFLICT, { reason: 'idempotency_key_reused' });
  return toQrisPayment(earlier, true);
}

/** `expired` is a pending payment past its expiry: computed on read, nothing has to run at expiry. */
export function statusOf(row: Pick<QrisPaymentRow, 'status' | 'expires_at'>, now = new Date()): string {
  return row.status === 'pending' && new Date(row.expires_at).getTime() <= now.getTime() ? 'expired' : row.status;
}

function toQrisPayment(row: QrisPaymentRow, replay: boolean): QrisPaymentType {
  return {
    id: row.id,
    outletId: row.outlet_id,
    amount: Number(row.amount),
    billNumber: row.bill_number,
    qrisPayload: row.qris_payload,
    status: statusOf(row),
    salesOrderId: row.sales_order_id,
    expiresAt: new Date(row.expires_at),
    paidAt: row.paid_at ? new Date(row.paid_at) : null,
    transactionId: row.transaction_id,
    createdAt: new Date(row.created_at),
    idempotentReplay: replay,
  };
}

/** A success event's transaction, as the intake just recorded it. */
export interface RecordedSuccess {
  eventId: string;
  bankCode: string;
  nmid: string;
  merchantId: string;
  outletId: string;
  transactionId: string;
  referenceNumber: string | null | undefined;
  grossAmount: number;
  transactionAt: Date;
}

/** The bill number a success's reference_number names (normalised), or null when it is no bill number of ours. */
export function billNumberOf(referenceNumber: string | null | undefined): string | null {
  const bill = referenceNumber?.trim().toUpperCase();
  return bill && BILL_NUMBER_PATTERN.test(bill) ? bill : null;
}

/** What matching a success that names no bill of ours comes to: nothing to settle, no statement. */
export const NO_BILL: QrisMatch = Object.freeze({ outcome: null });

/**
 * Matching, inside the intake transaction of a success event that recorded its transaction
 * (docs/decisions/0201-qris-payloads.md). Only a reference_number shaped like our bill numbers is a candidate
 * (any other is an ordinary payment of the static QRIS). The payment of that bill number is locked; it becomes
 * paid — once: `where status = 'pending'` — when it is of the event's merchant and outlet, pending, not expired
 * at the event's transaction time, and of the same amount. Anything else is recorded as an unmatched payment with
 * its reason, once per event. Returns what happened.
 */
export async function matchQrisPayment(repo: QrisPaymentRepository, s: RecordedSuccess): Promise<QrisMatch> {
  const bill = billNumberOf(s.referenceNumber);
  if (!bill) return NO_BILL;
  const payment = await repo.lockByBillNumber(bill);
  const reason = unmatchedReasonOf(payment, s);
  if (
    !reason &&
    (await repo.markPaid(payment!.id, { paidAt: s.transactionAt, transactionId: s.transactionId, paymentEventId: s.eventId }))
  ) {
    // The catalog marks the order paid from the outbox (order-settlement module), committed with this match.
    if (payment!.sales_order_id)
      await repo.enqueueOrderSettlement({
        qris_payment_id: payment!.id,
        merchant_id: payment!.merchant_id,
        outlet_id: payment!.outlet_id,
        sales_order_id: payment!.sales_order_id,
        amount: Number(payment!.amount),
        transaction_id: s.transactionId,
        paid_at: s.transactionAt,
      });
    return { outcome: 'paid', payment };
  }
  await repo.recordUnmatched({
    id: uuidv7(),
    payment_event_id: s.eventId,
    transaction_id: s.transactionId,
    bank_code: s.bankCode,
    nmid: s.nmid,
    merchant_id: s.merchantId,
    outlet_id: s.outletId,
    bill_number: bill,
    gross_amount: s.grossAmount,
    reason: reason ?? 'already_paid',
    qris_payment_id: payment?.id ?? null,
    transaction_at: s.transactionAt,
    created_at: new Date(),
  });
  return { outcome: reason ?? 'already_paid' };
}

/** What matching a success event came to: `paid` with the payment it settled, an unmatched reason, or null (no bill number). */
export interface QrisMatch {
  outcome: 'paid' | UnmatchedReason | null;
  payment?: QrisPaymentRow;
}

/** Why a success event cannot settle `payment` (rules 3–4 of the record), or null when it settles it. */
function unmatchedReasonOf(payment: QrisPaymentRow | undefined, s: RecordedSuccess): UnmatchedReason | null {
  if (!payment) return 'unknown_bill_number';
  if (payment.merchant_id !== s.merchantId || payment.outlet_id !== s.outletId || payment.nmid !== s.nmid) return 'other_outlet';
  if (payment.status === 'paid') return 'already_paid';
  if (payment.status === 'cancelled') return 'cancelled';
  if (new Date(payment.expires_at).getTime() < s.transactionAt.getTime()) return 'expired';
  if (Number(payment.amount) !== s.grossAmount) return 'amount_mismatch';
  return null;
}
