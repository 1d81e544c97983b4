import type { Visibility } from '@lib/domain/access/user-scope';
import { Repository } from '@lib/db/repository';
import { Transaction } from './transaction.entity';

/** Every column, for hand-written selects that map rows onto the entity or the wire type. */
export const TRANSACTION_COLUMNS = [
  'id',
  'merchant_id',
  'outlet_id',
  'terminal_id',
  'bank_code',
  'nmid',
  'transaction_code',
  'external_reference',
  'rrn',
  'status',
  'gross_amount',
  'payer_bank_code',
  'payer_bank_name',
  'payer_name_masked',
  'payment_method',
  'currency',
  'mdr_rate',
  'mdr_fee_amount',
  'net_amount_after_mdr',
  'mdr_fee_bank',
  'switching_fee',
  'platform_fee',
  'refunded_amount',
  'settlement_status',
  'settled_at',
  'settlement_ref',
  'transaction_at',
  'created_at',
  'updated_at',
].join(', ');

/**
 * A transaction as a plain row of TRANSACTION_COLUMNS. The driver returns bigint, numeric and timestamptz as strings
 * here (the ORM's type parsers).
 */
export type TransactionRow = Record<string, any>;

/** An instant as `Date#toISOString()` writes it (UTC, milliseconds, Z), formatted by PostgreSQL. */
const isoUtc = (column: string) => `to_char(p.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The columns of a `merchantTransactionPage` row (transaction-page.ts), its two instants already as ISO text. */
const PAGE_COLUMNS = [
  'p.id',
  'p.transaction_code',
  'p.external_reference',
  'p.status',
  'p.payment_method',
  'p.payer_bank_name',
  'p.gross_amount',
  'p.mdr_rate',
  'p.mdr_fee_amount',
  'p.net_amount_after_mdr',
  'p.currency',
  `${isoUtc('transaction_at')} as transaction_at_iso`,
  `${isoUtc('settled_at')} as settled_at_iso`,
  'p.settlement_status',
  'p.outlet_id',
].join(', ');

/** A row of PAGE_COLUMNS: bigint and numeric as strings (the ORM's type parsers), the instants as ISO text. */
export interface TransactionPageDbRow {
  id: string;
  transaction_code: string;
  external_reference: string | null;
  status: string;
  payment_method: string;
  payer_bank_name: string | null;
  gross_amount: string;
  mdr_rate: string;
  mdr_fee_amount: string;
  net_amount_after_mdr: string;
  currency: string;
  transaction_at_iso: string;
  settled_at_iso: string | null;
  settlement_status: string;
  outlet_id: string | null;
}

export interface TransactionFilter {
  /** Inclusive lower bound of transaction_at. */
  from?: Date | null;
  /** Inclusive upper bound of transaction_at. */
  to?: Date | null;
  /** Exclusive upper bound of transaction_at. */
  before?: Date | null;
  /** Stored statuses to keep; null or empty = all. */
  statuses?: string[] | null;
  /** Only this outlet's transactions. */
  outletId?: string | null;
  /** The rows the reader may see (lib/domain/access/user-scope.ts `readVisibility`); null or absent: all. */
  visibility?: Visibility;
}

/** The filters of `"transaction".merchant_pages`, by its parameter names; null or absent: none. */
interface PageFilters {
  statuses?: readonly string[] | null;
  from_at?: Date | null;
  to_at?: Date | null;
  before_at?: Date | null;
  after_at?: string | null;
  after_id?: string | null;
  outlet?: string | null;
  outlet_ids?: readonly string[] | null;
  terminal?: string | null;
}

export interface FeedPageQuery {
  /** Rows per merchant (the page size + 1, to tell whether there is more). */
  perMerchant: number;
  after: { at: string; id: string } | null;
  outletId: string | null;
  status: string | null;
  from: Date | null;
  to: Date | null;
  visibility: Visibility;
}

/**
 * Transactions: every read of the table (lists, totals and summaries, all plain rows; single rows by id as entities).
 * Transactions are written by the payment-event intake and matched by settlements (their repositories).
 */
export class TransactionRepository extends Repository {
  byIds(ids: string[]): Promise<Transaction[]> {
    return this.em.find(Transaction, { id: { $in: ids } });
  }

  /**
   * The latest `limit` of each merchant, newest first, grouped by merchant in one statement: a lateral `limit` per
   * merchant on the (merchant_id, transaction_at desc, id desc) index, so it reads `limit` rows a merchant, not its
   * whole history (a window function over every row did: docs/benchmarks.md, "Cost as data grows").
   */
  latestOf(merchantIds: string[], limit: number): Promise<TransactionRow[]> {
    return this.pages(merchantIds, limit, {});
  }

  /** The merchant's transactions in a window, newest first, at most `limit`. */
  window(merchantId: string, filter: TransactionFilter, limit: number): Promise<TransactionRow[]> {
    return this.pages([merchantId], limit, windowFilters(filter));
  }

  /**
   * `window`'s rows with the page's columns only (`PAGE_COLUMNS`): what `merchantTransactionPage` returns, without
   * the 15 other columns' output, transfer and parsing (docs/decisions/0018-transaction-lists-and-paging.md).
   */
  pageWindow(merchantId: string, filter: TransactionFilter, limit: number): Promise<TransactionPageDbRow[]> {
    return this.pages([merchantId], limit, windowFilters(filter), PAGE_COLUMNS);
  }

  /**
   * The newest `perMerchant` of each merchant with these filters, ordered by merchant then newest first, in one
   * statement: `"transaction".merchant_pages` (Migration20261130100000_partitioned_history.ts) reads each merchant's
   * monthly partitions newest first and stops at the limit, so it reads the rows it returns, not the merchant's whole
   * history (docs/decisions/0208-partitioned-history.md; docs/benchmarks.md, "Cost as data grows"). One merchant's
   * page is read in windows of months, each planned on its own months (Migration20261205100000_merchant_pages_by_window.ts,
   * docs/decisions/0018-transaction-lists-and-paging.md).
   */
  private pages<T = TransactionRow>(
    merchantIds: readonly string[],
    perMerchant: number,
    filters: PageFilters,
    columns = TRANSACTION_COLUMNS,
  ): Promise<T[]> {
    return this.rows<T>(
      `select ${columns}
         from "transaction".merchant_pages(?::uuid[], ?::int, statuses => ?::text[], from_at => ?::timestamptz, to_at => ?::timestamptz,
              before_at => ?::timestamptz, after_at => ?::timestamptz, after_id => ?::uuid, outlet => ?::uuid, outlet_ids => ?::uuid[],
              terminal => ?::uuid) p
        order by p.merchant_id, p.transaction_at desc, p.id desc`,
      [
        merchantIds,
        perMerchant,
        filters.statuses ?? null,
        filters.from_at ?? null,
        filters.to_at ?? null,
        filters.before_at ?? null,
        filters.after_at ?? null,
        filters.after_id ?? null,
        filters.outlet ?? null,
        filters.outlet_ids ?? null,
        filters.terminal ?? null,
      ],
    );
  }

  /**
   * Gross (as text) and count of the `success` transactions in the window, per merchant and outlet (a null outlet:
   * recorded without one) of each merchant that has any.
   */
  async successTotals(
    merchantIds: readonly string[],
    filter: Pick<TransactionFilter, 'from' | 'to' | 'before' | 'outletId'>,
  ): Promise<{ merchant_id: string; outlet_id: string | null; gross: string; count: string }[]> {
    const qb = this.em
      .getKnex()('transaction.transactions')
      .whereIn('merchant_id', merchantIds as string[])
      .where('status', 'success')
      .groupBy('merchant_id', 'outlet_id')
      .select<{ merchant_id: string; outlet_id: string | null; gross: string; count: string }[]>(
        'merchant_id',
        'outlet_id',
        this.em.getKnex().raw('coalesce(sum(gross_amount), 0)::text as gross'),
        this.em.getKnex().raw('count(*)::text as count'),
      );
    applyFilter(qb, null, filter);
    return qb;
  }

  /**
   * Σ gross, MDR fee and service fee (as text) and the count of the merchant's `success` transactions in [from, before)
   * that `visibility` lets the reader see.
   */
  async periodSums(
    merchantId: string,
    from: Date,
    before: Date,
    visibility: Visibility,
  ): Promise<{ gross: string; mdr: string; service: string; count: string }> {
    const outletIds = visibility?.outletIds ?? null;
    const terminalId = visibility?.terminalId ?? null;
    const [row] = await this.rows<{ gross: string; mdr: string; service: string; count: string }>(
      `select coalesce(sum(gross_amount), 0)::text as gross, coalesce(sum(mdr_fee_amount), 0)::text as mdr,
              coalesce(sum(platform_fee), 0)::text as service, count(*)::text as count
         from "transaction".transactions
        where merchant_id = ?::uuid and status = 'success' and transaction_at >= ?::timestamptz and transaction_at < ?::timestamptz
          and (?::uuid[] is null or outlet_id = any(?::uuid[])) and (?::uuid is null or terminal_id = ?::uuid)`,
      [merchantId, from, before, outletIds, outletIds, terminalId, terminalId],
    );
    return row;
  }

  /** The status stored for the merchant's newest transaction with this code; null without one. */
  async storedStatus(merchantId: string, transactionCode: string): Promise<string | null> {
    const [row] = await this.execute<{ status: string }>(
      `select status from "transaction".transactions where merchant_id = ? and transaction_code = ? order by transaction_at desc, id desc limit 1`,
      [merchantId, transactionCode],
    );
    return row?.status ?? null;
  }

  /**
   * A keyset page of each merchant's transactions, newest first (transaction_at, id), after `query.after`: up to
   * `query.perMerchant` rows per merchant in one statement, ordered by merchant then position. Each merchant's page is
   * a lateral `limit` on the (merchant_id, transaction_at desc, id desc) index: it reads the rows it returns, not the
   * merchant's whole history (docs/benchmarks.md, "Cost as data grows").
   */
  feedPages(merchantIds: readonly string[], query: FeedPageQuery): Promise<TransactionRow[]> {
    return this.pages(merchantIds, query.perMerchant, {
      statuses: query.status ? [query.status] : null,
      from_at: query.from,
      to_at: query.to,
      after_at: query.after?.at ?? null,
      after_id: query.after?.id ?? null,
      outlet: query.outletId,
      outlet_ids: query.visibility?.outletIds ?? null,
      terminal: query.visibility?.terminalId ?? null,
    });
  }

  /** Gross (as text) and count of `success` transactions in [from, before) per merchant and outlet. */
  feedSums(
    merchantIds: readonly string[],
    period: { from: Date; before: Date; outletId: string | null },
    visibility: Visibility,
  ): Promise<{ merchant_id: string; outlet_id: string | null; gross: string; count: string }[]> {
    const knex = this.em.getKnex();
    const query = knex('transaction.transactions as t')
      .whereIn('t.merchant_id', merchantIds as string[])
      .where('t.status', 'success')
      .where('t.transaction_at', '>=', period.from)
      .where('t.transaction_at', '<', period.before)
      .groupBy('t.merchant_id', 't.outlet_id')
      .select<{ merchant_id: string; outlet_id: string | null; gross: string; count: string }[]>(
        't.merchant_id',
        't.outlet_id',
        knex.raw('sum(t.gross_amount)::text as gross'),
        knex.raw('count(*)::text as count'),
      );
    applyVisibility(query, visibility, period.outletId);
    return query;
  }
}

function applyFilter(qb: any, merchantId: string | null, filter: TransactionFilter): void {
  if (merchantId) qb.where('merchant_id', merchantId);
  if (filter.from) qb.where('transaction_at', '>=', filter.from);
  if (filter.to) qb.where('transaction_at', '<=', filter.to);
  if (filter.before) qb.where('transaction_at', '<', filter.before);
  if (filter.statuses?.length) qb.whereIn('status', filter.statuses);
  if (filter.outletId) qb.where('outlet_id', filter.outletId);
}

function applyVisibility(query: any, visibility: Visibility, outletId: string | null): void {
  if (outletId) query.where('t.outlet_id', outletId);
  if (visibility?.outletIds) query.whereIn('t.outlet_id', visibility.outletIds);
  if (visibility?.terminalId) query.where('t.terminal_id', visibility.terminalId);
}

/** A window's filters as `merchant_pages`' parameters. */
function windowFilters(filter: TransactionFilter): PageFilters {
  return {
    statuses: filter.statuses?.length ? filter.statuses : null,
    from_at: filter.from ?? null,
    to_at: filter.to ?? null,
    before_at: filter.before ?? null,
    outlet: filter.outletId ?? null,
    outlet_ids: filter.visibility?.outletIds ?? null,
    terminal: filter.visibility?.terminalId ?? null,
  };
}
