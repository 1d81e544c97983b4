import type { TransactionPageDbRow } from './transaction.repository';
import type { TransactionType } from './transaction.type';

/**
 * The Transaction fields a row of `Merchant.merchantTransactionPage` carries: those the partner transaction routes
 * select (rest-adapters/partner/routes/merchants/transactions/partner-transaction.fragment.graphql), keyed by their
 * GraphQL field names (docs/decisions/0018-transaction-lists-and-paging.md).
 */
export const PAGE_ROW_FIELDS = [
  'id',
  'transactionCode',
  'externalReference',
  'status',
  'paymentMethod',
  'paymentChannel',
  'grossAmount',
  'mdrRate',
  'mdrFeeAmount',
  'netAmountAfterMdr',
  'currency',
  'transactionAt',
  'settledAt',
  'settlementStatus',
  'outletId',
] as const satisfies readonly (keyof TransactionType)[];

type PageRowField = (typeof PAGE_ROW_FIELDS)[number];
/** What the typed field serialises a value to: a DateTime as its ISO string, everything else as it is. */
type Wire<T> = T extends Date ? string : T;

/** One row of the page, as the typed fields of the same transaction reach a client. */
export type TransactionPageRow = { [K in PageRowField]: Wire<TransactionType[K]> };

/**
 * A row of the page read (`TransactionRepository.pageWindow`) as a page row: the values `fromRow` gives the typed
 * fields of the same transaction (amounts as numbers, the decimal mdrRate as its string, the issuer's name as
 * paymentChannel), with each instant as the DateTime scalar's Date becomes in the subgraph's JSON answer
 * (`toISOString()`), which PostgreSQL has already written. An object literal, not a loop over PAGE_ROW_FIELDS: keyed
 * reads and writes with changing keys made this 11 % of the subgraph's CPU on a 500-row page.
 */
export function toPageRow(row: TransactionPageDbRow): TransactionPageRow {
  return {
    id: row.id,
    transactionCode: row.transaction_code,
    externalReference: row.external_reference,
    status: row.status,
    paymentMethod: row.payment_method,
    paymentChannel: row.payer_bank_name,
    grossAmount: Number(row.gross_amount),
    mdrRate: row.mdr_rate,
    mdrFeeAmount: Number(row.mdr_fee_amount),
    netAmountAfterMdr: Number(row.net_amount_after_mdr),
    currency: row.currency,
    transactionAt: row.transaction_at_iso,
    settledAt: row.settled_at_iso,
    settlementStatus: row.settlement_status,
    outletId: row.outlet_id,
  };
}
