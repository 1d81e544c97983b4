import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { Visibility } from '@lib/domain/access/user-scope';
import { UUID_PATTERN, loaderByKey, loaderGroupedByKey } from '@lib/federation/loaders';
import type { Transaction } from './transaction.entity';
import { type TransactionFilter, type TransactionRow, TransactionRepository } from './transaction.repository';
import type { TransactionType } from './transaction.type';
import { type TransactionPageRow, toPageRow } from './transaction-page';

export const MAX_LATEST = 100;
/** Hard cap of merchantTransactions (partner-api.md §8: Contract B maximum 500). */
export const MAX_WINDOW_ITEMS = 500;

/** Whether a window can hold rows: the merchant's id and the outlet's, if any, are UUIDs. */
const isWindowOf = (merchantId: string, filter: TransactionFilter): boolean =>
  UUID_PATTERN.test(merchantId) && (!filter.outletId || UUID_PATTERN.test(filter.outletId));

/** A window's row limit clamped to 1..MAX_WINDOW_ITEMS. */
const windowLimit = (limit: number): number => Math.min(Math.max(limit, 1), MAX_WINDOW_ITEMS);

export interface TransactionTotals {
  grossAmount: number;
  count: number;
  /** Per outlet (null: recorded without one), highest gross first; grossAmount and count are its sums. */
  outletBreakdown: { outlet: { id: string } | null; grossAmount: number; count: number }[];
}

const NO_TOTALS: TransactionTotals = { grossAmount: 0, count: 0, outletBreakdown: [] };

/**
 * Each merchant's totals, in the order of `merchantIds`, from sums per merchant and outlet: the breakdown highest gross
 * first (then by outlet id), the totals its sums, so that they always add up.
 */
export function totalsPerMerchant(
  merchantIds: readonly string[],
  rows: readonly { merchant_id: string; outlet_id: string | null; gross: string; count: string }[],
): TransactionTotals[] {
  return merchantIds.map((id) => {
    const outletBreakdown = rows
      .filter((r) => r.merchant_id === id)
      .map((r) => ({ outlet: r.outlet_id ? { id: r.outlet_id } : null, grossAmount: Number(r.gross), count: Number(r.count) }))
      .sort((a, b) => b.grossAmount - a.grossAmount || (a.outlet?.id ?? '').localeCompare(b.outlet?.id ?? ''));
    return {
      grossAmount: outletBreakdown.reduce((sum, o) => sum + o.grossAmount, 0),
      count: outletBreakdown.reduce((sum, o) => sum + o.count, 0),
      outletBreakdown,
    };
  });
}

export class TransactionService {
  private readonly byId;
  /** One loader per page size: the latest N of a whole batch of merchants in one statement. */
  private readonly latestByLimit = new Map<number, DataLoader<string, TransactionType[]>>();
  /** Success totals of a batch of merchants, one loader per window. */
  private readonly totalsByWindow = new Map<string, DataLoader<string, TransactionTotals>>();

  private readonly repo: TransactionRepository;

  constructor(em: EntityManager) {
    this.repo = new TransactionRepository(em);
    this.byId = loaderByKey(
      (ids: string[]) => this.repo.byIds(ids),
      (row) => row.id,
    );
  }

  private latestLoader(limit: number): DataLoader<string, TransactionType[]> {
    let loader = this.latestByLimit.get(limit);
    if (!loader) {
      loader = loaderGroupedByKey(
        async (merchantIds: string[]) => (await this.repo.latestOf(merchantIds, limit)).map(fromRow),
        (row) => row.merchant.id,
      );
      this.latestByLimit.set(limit, loader);
    }
    return loader;
  }

  async findById(id: string): Promise<TransactionType | null> {
    const row = UUID_PATTERN.test(id) ? await this.byId.load(id) : null;
    return row && toTransactionType(row);
  }

  /** The merchant's latest transactions, newest first; `last` is clamped to 1..MAX_LATEST. */
  async latestOfMerchant(merchantId: string, last: number): Promise<TransactionType[]> {
    const limit = Math.min(Math.max(last, 1), MAX_LATEST);
    return this.latestLoader(limit).load(merchantId);
  }

  /** The merchant's transactions in a window, newest first, at most `limit` (clamped to 1..MAX_WINDOW_ITEMS). */
  async ofMerchant(merchantId: string, filter: TransactionFilter, limit: number): Promise<TransactionType[]> {
    if (!isWindowOf(merchantId, filter)) return [];
    return (await this.repo.window(merchantId, filter, windowLimit(limit))).map(fromRow);
  }

  /**
   * `ofMerchant` as plain page rows (`merchantTransactionPage`): the same rows and order, for lists that would
   * otherwise pay graphql-js and the gateway per field (docs/decisions/0018-transaction-lists-and-paging.md), read with
   * the page's columns only (docs/decisions/0018-transaction-lists-and-paging.md).
   */
  async pageOfMerchant(merchantId: string, filter: TransactionFilter, limit: number): Promise<TransactionPageRow[]> {
    if (!isWindowOf(merchantId, filter)) return [];
    return (await this.repo.pageWindow(merchantId, filter, windowLimit(limit))).map(toPageRow);
  }

  /** Gross and count of the merchant's `success` transactions in a window (all time without bounds); batched. */
  async totalsOfMerchant(
    merchantId: string,
    filter: Pick<TransactionFilter, 'from' | 'to' | 'before' | 'outletId'>,
  ): Promise<TransactionTotals> {
    if (!UUID_PATTERN.test(merchantId) || (filter.outletId && !UUID_PATTERN.test(filter.outletId))) return NO_TOTALS;
    const key = JSON.stringify([filter.from ?? null, filter.to ?? null, filter.before ?? null, filter.outletId ?? null]);
    let loader = this.totalsByWindow.get(key);
    if (!loader) {
      loader = new DataLoader(async (merchantIds: readonly string[]) => {
        const rows = await this.repo.successTotals(merchantIds, filter);
        return totalsPerMerchant(merchantIds, rows);
      });
      this.totalsByWindow.set(key, loader);
    }
    return loader.load(merchantId);
  }
}

export interface PeriodSummary {
  grossAmount: number;
  mdrFeeAmount: number;
  serviceFeeAmount: number;
  netAmount: number;
  count: number;
}

export class TransactionPeriodService {
  private readonly repo: TransactionRepository;

  constructor(em: EntityManager) {
    this.repo = new TransactionRepository(em);
  }

  /**
   * The core app's period summary: over `success` transactions with transaction_at in [from, before), Σ gross,
   * Σ MDR fee, Σ service fee (platform_fee: the platform's per-transaction service fee, charged with each day's
   * settlement — the "daily service fee") and net = gross − MDR − service fee; only the rows `visibility` shows.
   */
  async summaryOfMerchant(merchantId: string, from: Date, before: Date, visibility: Visibility): Promise<PeriodSummary> {
    if (!UUID_PATTERN.test(merchantId)) return { grossAmount: 0, mdrFeeAmount: 0, serviceFeeAmount: 0, netAmount: 0, count: 0 };
    const row = await this.repo.periodSums(merchantId, from, before, visibility);
    const grossAmount = Number(row.gross);
    const mdrFeeAmount = Number(row.mdr);
    const serviceFeeAmount = Number(row.service);
    return {
      grossAmount,
      mdrFeeAmount,
      serviceFeeAmount,
      netAmount: grossAmount - mdrFeeAmount - serviceFeeAmount,
      count: Number(row.count),
    };
  }

  /** The status stored for the merchant's transaction with this code (the newest, should a code repeat across banks); null without one. */
  async storedStatus(merchantId: string, transactionCode: string): Promise<string | null> {
    if (!UUID_PATTERN.test(merchantId)) return null;
    return this.repo.storedStatus(merchantId, transactionCode);
  }
}

/**
 * A raw row of TRANSACTION_COLUMNS onto the wire type, without hydrating entities: list reads (up to 500 rows)
 * spent most of their time in the ORM's identity map otherwise. The driver returns bigint, numeric and
 * timestamptz as strings here (the ORM's type parsers).
 */
export function fromRow(row: TransactionRow): TransactionType {
  return {
    id: row.id,
    transactionCode: row.transaction_code,
    status: row.status,
    grossAmount: Number(row.gross_amount),
    transactionAt: new Date(row.transaction_at),
    merchant: { id: row.merchant_id },
    outletId: row.outlet_id,
    terminalId: row.terminal_id,
    externalReference: row.external_reference,
    rrn: row.rrn,
    paymentMethod: row.payment_method,
    paymentChannel: row.payer_bank_name,
    mdrRate: row.mdr_rate,
    mdrFeeAmount: Number(row.mdr_fee_amount),
    netAmountAfterMdr: Number(row.net_amount_after_mdr),
    mdrFeeBank: Number(row.mdr_fee_bank),
    switchingFee: Number(row.switching_fee),
    platformFee: Number(row.platform_fee),
    currency: row.currency,
    settledAt: row.settled_at === null ? null : new Date(row.settled_at),
    settlementStatus: row.settlement_status,
    refundedAmount: Number(row.refunded_amount),
  };
}

export function toTransactionType(row: Transaction): TransactionType {
  return {
    id: row.id,
    transactionCode: row.transactionCode,
    status: row.status,
    grossAmount: row.grossAmount,
    transactionAt: row.transactionAt,
    merchant: { id: row.merchantId },
    outletId: row.outletId ?? null,
    terminalId: row.terminalId ?? null,
    externalReference: row.externalReference ?? null,
    rrn: row.rrn ?? null,
    paymentMethod: row.paymentMethod,
    paymentChannel: row.payerBankName ?? null,
    mdrRate: row.mdrRate,
    mdrFeeAmount: row.mdrFeeAmount,
    netAmountAfterMdr: row.netAmountAfterMdr,
    mdrFeeBank: row.mdrFeeBank,
    switchingFee: row.switchingFee,
    platformFee: row.platformFee,
    currency: row.currency,
    settledAt: row.settledAt ?? null,
    settlementStatus: row.settlementStatus,
    refundedAmount: row.refundedAmount,
  };
}
