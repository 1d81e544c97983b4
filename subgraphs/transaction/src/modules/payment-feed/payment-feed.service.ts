import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '@lib/auth/principal';
import { userScopeOf, withinScope } from '@lib/domain/access/user-scope';
import { BadInputError } from '@lib/errors/app-error';
import type { QrisMatch, RecordedSuccess } from '../qris-payment/qris-payment.service';
import { type NewPaymentFeedRow, type PaymentFeedRow, PaymentFeedRepository } from './payment-feed.repository';
import type { PaymentFeedEventType, PaymentFeedPageType } from './payment-feed.type';

/** Rows older than this are not replayed (docs/decisions/0202-live-payment-events.md). */
export const FEED_REPLAY_WINDOW_SECS = 24 * 3600;
export const FEED_MAX_PAGE = 1000;
const DECIMAL_ID = /^(0|[1-9][0-9]{0,18})$/;

/** The feed row of a success event's transaction, with the dynamic payment it settled (if it did). */
export function feedRowOf(s: RecordedSuccess, terminalId: string | null, transactionCode: string, match: QrisMatch): NewPaymentFeedRow {
  const paid = match.outcome === 'paid' ? match.payment : undefined;
  return {
    kind: paid ? 'qris_payment.paid' : 'transaction.success',
    merchant_id: s.merchantId,
    outlet_id: s.outletId,
    terminal_id: terminalId,
    transaction_id: s.transactionId,
    transaction_code: transactionCode,
    reference_number: s.referenceNumber ?? null,
    bank_code: s.bankCode,
    nmid: s.nmid,
    amount: s.grossAmount,
    transaction_at: s.transactionAt,
    qris_payment_id: paid?.id ?? null,
    bill_number: paid?.bill_number ?? null,
    sales_order_id: paid?.sales_order_id ?? null,
  };
}

/** Reading the live payment feed. */
export class PaymentFeedService {
  private readonly repo: PaymentFeedRepository;

  constructor(em: EntityManager) {
    this.repo = new PaymentFeedRepository(em);
  }

  /**
   * The merchant's events after `afterId` (none when it is null: just the head, where a new stream starts), within the
   * replay window. A user sees only events of its outlets (and its device, for a device-bound staff member); `lastId`
   * is the last row read, seen or not, so a reader pages on from there.
   */
  async page(principal: Principal, merchantId: string, afterId: string | null, limit: number): Promise<PaymentFeedPageType> {
    if (!Number.isInteger(limit) || limit < 1 || limit > FEED_MAX_PAGE) throw new BadInputError(`limit must be 1 to ${FEED_MAX_PAGE}`);
    const headId = await this.repo.headOf(merchantId);
    if (afterId === null) return { headId, lastId: headId, events: [] };
    if (!DECIMAL_ID.test(afterId)) throw new BadInputError('afterId must be a decimal event id');
    const rows = await this.repo.after(merchantId, afterId, limit, FEED_REPLAY_WINDOW_SECS);
    const visible = withinScope(
      userScopeOf(principal),
      rows,
      (r) => r.outlet_id,
      (r) => r.terminal_id,
    );
    return { headId, lastId: rows.length > 0 ? rows[rows.length - 1].id : afterId, events: visible.map(toFeedEvent) };
  }

  /**
   * Every merchant's events after `afterId` (none when it is null: just the global head), within the replay window:
   * the REST process reads the feed once per wake-up for all its open streams (lib/events/live-feed.ts).
   */
  async pageAll(afterId: string | null, limit: number): Promise<PaymentFeedPageType> {
    if (!Number.isInteger(limit) || limit < 1 || limit > FEED_MAX_PAGE) throw new BadInputError(`limit must be 1 to ${FEED_MAX_PAGE}`);
    const headId = await this.repo.head();
    if (afterId === null) return { headId, lastId: headId, events: [] };
    if (!DECIMAL_ID.test(afterId)) throw new BadInputError('afterId must be a decimal event id');
    const rows = await this.repo.afterAll(afterId, limit, FEED_REPLAY_WINDOW_SECS);
    return { headId, lastId: rows.length > 0 ? rows[rows.length - 1].id : afterId, events: rows.map(toFeedEvent) };
  }
}

export const PRUNE_BATCH = 5000;

/**
 * Retention of the feed (docs/decisions/0202-live-payment-events.md): deletes rows older than `retentionDays` (and
 * settled rows of the sales-order settlement outbox), `batch` at a time, each batch its own short transaction.
 * Safe with several copies: a batch runs under a try-lock, and a copy that finds it taken stops (`skipped`).
 */
export async function pruneFeed(
  em: EntityManager,
  retentionDays: number,
  batch = PRUNE_BATCH,
): Promise<{ feed_rows: number; settlements: number; skipped: boolean }> {
  if (!Number.isInteger(retentionDays) || retentionDays < 2) throw new BadInputError('the feed keeps at least 2 days (24 h are replayed)');
  const repo = new PaymentFeedRepository(em);
  const cutoff = new Date(Date.now() - retentionDays * 86_400_000);
  const total = { feed_rows: 0, settlements: 0, skipped: false };
  for (;;) {
    const done = await repo.pruneBatch(cutoff, batch);
    if (!done) return { ...total, skipped: true };
    total.feed_rows += done.feed;
    total.settlements += done.settlements;
    if (done.feed < batch && done.settlements < batch) return total;
  }
}

export function toFeedEvent(row: PaymentFeedRow): PaymentFeedEventType {
  return {
    id: row.id,
    kind: row.kind,
    merchantId: row.merchant_id,
    outletId: row.outlet_id,
    terminalId: row.terminal_id,
    transactionId: row.transaction_id,
    transactionCode: row.transaction_code,
    referenceNumber: row.reference_number,
    bankCode: row.bank_code,
    nmid: row.nmid,
    amount: Number(row.amount),
    transactionAt: row.transaction_at ? new Date(row.transaction_at) : null,
    qrisPaymentId: row.qris_payment_id,
    billNumber: row.bill_number,
    salesOrderId: row.sales_order_id,
    createdAt: new Date(row.created_at),
  };
}
