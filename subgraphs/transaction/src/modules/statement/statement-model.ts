import type { PeriodSummary } from '../transaction/transaction.service';

/**
 * The reconciliation result of a statement's month (docs/decisions/0242-daily-reconciliation.md): the daily
 * reconciliation per outlet (ReconciliationService, docs/decisions/0242-daily-reconciliation.md) summarised for the
 * statement's section of its own.
 */
export interface ReconciliationSummary {
  /** Discrepancies still open at generation. */
  open: number;
  /** Discrepancies of the month resolved. */
  resolved: number;
  /** Discrepancies by class (e.g. `missing_settlement`, `amount_mismatch`). */
  byClass: Record<string, number>;
}

export interface ReconciliationProvider {
  /** The month's reconciliation of the merchant (one outlet when given); null when none is available. */
  summaryOf(merchantId: string, outletId: string | null, month: string): Promise<ReconciliationSummary | null>;
}

export interface StatementTransactionRow {
  id: string;
  transaction_code: string;
  status: string;
  outlet_id: string | null;
  nmid: string | null;
  gross_amount: number;
  mdr_fee_amount: number;
  service_fee_amount: number;
  refunded_amount: number;
  net_amount: number;
  settlement_status: string;
  transaction_at: Date;
}

export interface StatementSettlementRow {
  settlement_id: string;
  bank_code: string;
  nmid: string;
  settlement_date: string;
  gross_amount: number;
  mdr_total: number;
  net_amount: number;
  matched_count: number;
}

export interface StatementDay {
  /** YYYY-MM-DD in Asia/Makassar. */
  day: string;
  count: number;
  gross_amount: number;
}

/** Everything a statement shows; the PDF and the CSV are two renderings of it. */
export interface StatementModel {
  merchant: { id: string; name: string | null };
  /** Null: the whole merchant. */
  outlet: { id: string; nmids: string[] } | null;
  /** YYYY-MM. */
  month: string;
  firstDay: string;
  lastDay: string;
  generatedAt: Date;
  /** Success transactions before the month not yet settled when it began: what the month opened owing the merchant. */
  opening: { count: number; net_amount: number };
  /** Success transactions of the month: the app's period summary (`/merchant/transactions?period=month`). */
  summary: PeriodSummary;
  refunds: { count: number; amount: number };
  settlements: { count: number; gross_amount: number; mdr_amount: number; net_amount: number; rows: StatementSettlementRow[] };
  /** Every day of the month, with its success takings (zero for a day without). */
  daily: StatementDay[];
  /** Every transaction of the month, all statuses, oldest first. */
  transactions: StatementTransactionRow[];
  reconciliation: ReconciliationSummary | null;
}

/** The figures a statement's list shows and its email tells (stored as `totals`). */
export interface StatementTotals {
  transaction_count: number;
  gross_amount: number;
  mdr_fee_amount: number;
  service_fee_amount: number;
  net_amount: number;
  refund_count: number;
  refund_amount: number;
  settled_amount: number;
  opening_unsettled_amount: number;
}

export function totalsOf(model: StatementModel): StatementTotals {
  return {
    transaction_count: model.summary.count,
    gross_amount: model.summary.grossAmount,
    mdr_fee_amount: model.summary.mdrFeeAmount,
    service_fee_amount: model.summary.serviceFeeAmount,
    net_amount: model.summary.netAmount,
    refund_count: model.refunds.count,
    refund_amount: model.refunds.amount,
    settled_amount: model.settlements.net_amount,
    opening_unsettled_amount: model.opening.net_amount,
  };
}
