/**
 * Jobs one subgraph enqueues for another to run (DESIGN.md §6: a change another subgraph must act on travels on the
 * queue, never as a cross-schema write): the task's name and payload are the contract between the two.
 */

/** A successful payment of the live feed: enqueued by the transaction subgraph in the intake transaction, run by the merchant process. */
export const PAYMENT_RECEIVED_TASK = 'payment_received';

export interface PaymentReceivedPayload {
  /** The feed row's id (docs/decisions/0202-live-payment-events.md). */
  event_id: string;
  merchant_id: string;
  outlet_id: string;
  transaction_id: string;
  transaction_code: string;
  /** Whole rupiah. */
  amount: number;
  qris_payment_id: string | null;
}

/**
 * The daily summary (docs/decisions/0046-notifications.md) travels merchant → transaction →
 * (outlet →) merchant, each hop adding what its subgraph owns: the merchant process names the recipients of a
 * merchant, the transaction process their figures, the outlet process the best outlet's name, and the merchant process
 * sends. Every hop drops a payload whose `deadline_at` has passed.
 */
export const DAILY_SUMMARY_FIGURES_TASK = 'daily_summary.figures';
export const DAILY_SUMMARY_OUTLETS_TASK = 'daily_summary.outlets';
export const DAILY_SUMMARY_SEND_TASK = 'daily_summary.send';

export interface DailySummaryPayload {
  merchant_id: string;
  /** YYYY-MM-DD: the business day in Asia/Makassar. */
  business_day: string;
  /** The business day's window, [from, before): local 00:00 to the next local 00:00 (what the app's period `today` is). */
  from: string;
  before: string;
  /** The send time plus the catch-up window: a hop that runs after it does nothing. */
  deadline_at: string;
  recipients: DailySummaryRecipient[];
}

export interface DailySummaryRecipient {
  user_id: string;
  /** The member's role and outlets (empty: all), as in the app's principal (lib/domain/access/user-scope.ts). */
  role: 'owner' | 'admin' | 'staff' | 'viewer';
  outlet_ids: string[];
  /** Added by the transaction process: the success transactions of the day within the member's scope, whole rupiah. */
  figures?: {
    count: number;
    gross_amount: number;
    mdr_fee_amount: number;
    service_fee_amount: number;
    net_amount: number;
  };
  /** Added by the transaction process when the day's sales in scope came from two or more outlets; named by the outlet process. */
  best_outlet?: { outlet_id: string; gross_amount: number; count: number; name?: string | null } | null;
}

/**
 * Automatic suspension for inactivity (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md): the merchant
 * process's daily run names the active merchants whose inactivity window is near its end, as far as it knows; the
 * transaction process answers each one's last successful transaction (`suspension.activity`); the merchant process
 * then warns or suspends by that answer (`suspension.inactivity`). The transaction subgraph owns transactions, the
 * merchant subgraph the lifecycle: neither reads the other's tables.
 */
export const SUSPENSION_ACTIVITY_TASK = 'suspension.activity';
export const SUSPENSION_INACTIVITY_TASK = 'suspension.inactivity';

export interface SuspensionActivityPayload {
  /** The daily run this batch belongs to (ISO; its scheduled time): logs and job keys. */
  run_at: string;
  merchants: SuspensionActivityMerchant[];
}

export interface SuspensionActivityMerchant {
  merchant_id: string;
  /** Added by the transaction process: the latest `transaction_at` of the merchant's successful transactions (ISO), null for none. */
  last_success_at?: string | null;
}

/**
 * A settlement account requested or cancelled (docs/decisions/0238-settlement-accounts.md): enqueued by the outlet
 * subgraph with the change, run by the merchant process, which tells every owner of the merchant on push, email and
 * messaging in their language. Account numbers travel masked only (`******7890`).
 */
export const SETTLEMENT_ACCOUNT_CHANGED_TASK = 'settlement_account.changed';

export interface SettlementAccountChangedPayload {
  /** The settlement account row requested or cancelled. */
  account_id: string;
  merchant_id: string;
  /** Null: the corporate account. */
  outlet_id: string | null;
  outlet_name: string | null;
  action: 'requested' | 'cancelled';
  bank_code: string;
  account_number_masked: string;
  holder_name: string;
  /** The account paid into before this change, masked (null: none). */
  previous_account_masked: string | null;
  /** When the requested account becomes effective (ISO 8601). */
  effective_at: string;
  /** Who did it: `user:<id>` or `operator:<name>`. */
  actor: string;
}

/**
 * A monthly statement generated (docs/decisions/0242-daily-reconciliation.md): enqueued by the transaction subgraph with
 * the stored files, run by the merchant process, which emails every owner of the merchant whose address is verified
 * a notice with the month's figures and where the app downloads the files (no attachment: the files stay behind the
 * owner's sign-in).
 */
export const STATEMENT_READY_TASK = 'statement.ready';

export interface StatementReadyPayload {
  statement_id: string;
  merchant_id: string;
  /** Null: the whole merchant. */
  outlet_id: string | null;
  /** YYYY-MM, a calendar month in Asia/Makassar. */
  month: string;
  /** Success transactions of the month, whole rupiah (the app's period summary). */
  transaction_count: number;
  gross_amount: number;
  net_amount: number;
}

/**
 * A till close whose counted cash differs from the expected cash (docs/decisions/0057-sales-orders-and-receipt-numbers.md): enqueued by
 * the catalog subgraph with the close, run by the merchant process, which pushes it to every owner of the merchant in
 * their language.
 */
export const TILL_CASH_DIFFERENCE_TASK = 'till_close.cash_difference';

export interface TillCashDifferencePayload {
  close_id: string;
  merchant_id: string;
  outlet_id: string;
  kind: 'day' | 'shift';
  /** A day close's business day (YYYY-MM-DD, Asia/Makassar); null for a shift. */
  business_day: string | null;
  cashier_name: string | null;
  /** The close's window, ISO 8601. */
  period_start: string;
  period_end: string;
  /** Whole rupiah; cash_difference = counted_cash − expected_cash (negative: short). */
  expected_cash: number;
  counted_cash: number;
  cash_difference: number;
}

/**
 * The point of sale's orders paid by QRIS, for the daily reconciliation (docs/decisions/0242-daily-reconciliation.md):
 * enqueued by the catalog subgraph's triggers with every statement that writes a sales order or one of its payments
 * (`Migration20261220100000_reconciliation_orders`), run by the transaction process, which keeps each order's facts of
 * the highest version. Only orders with a payment of method `qris` travel.
 */
export const RECONCILIATION_POS_ORDERS_TASK = 'reconciliation.pos_orders';

export interface ReconciliationPosOrdersPayload {
  orders: {
    sales_order_id: string;
    merchant_id: string;
    outlet_id: string;
    receipt_number: string;
    /** open, completed, voided or refunded: only completed and refunded orders count as paid. */
    status: string;
    /** ISO 8601: when the sale was made (its business day in Asia/Jakarta is the reconciliation's). */
    transacted_at: string;
    /** Whole rupiah. */
    total_amount: number;
    /** The sum of the order's payments of method `qris`, whole rupiah. */
    qris_amount: number;
    /** Drawn after the write from one sequence: a higher version saw every earlier change of the order. */
    version: number;
  }[];
}
