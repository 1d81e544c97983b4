import type { TransactionType } from './transaction.type';

/**
 * The Transaction fields a row of `Merchant.merchantTransactionPage` carries: those the partner transaction routes
 * select (rest-adapters/partner/routes/merchants/transactions/partner-transaction.fragment.graphql), keyed by their
 * GraphQL field names (docs/decisions/0214-lean-wire-for-bulk-lists.md).
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
] as const satisfies readonly (keyof TransactionType)[];

type PageRowField = (typeof PAGE_ROW_FIELDS)[number];
/** What the typed field serialises a value to: a DateTime as its ISO string, everything else as it is. */
type Wire<T> = T extends Date ? string : T;

/** One row of the page, as the typed fields of the same transaction reach a client. */
export type TransactionPageRow = { [K in PageRowField]: Wire<TransactionType[K]> };

/**
 * A transaction of the wire type (`fromRow`, shared with `merchantTransactions`) as a page row: the same values, with
 * each Date as `toISOString()`, which is what the DateTime scalar's Date becomes in the subgraph's JSON answer. IDs,
 * strings (the decimal mdrRate among them) and SafeInts are already what their scalars serialise. An object literal,
 * not a loop over PAGE_ROW_FIELDS: keyed reads and writes with changing keys made this 11 % of the subgraph's CPU on
 * a 500-row page; the return type still holds the literal to exactly those fields.
 */
export function toPageRow(t: TransactionType): TransactionPageRow {
  return {
    id: t.id,
    transactionCode: t.transactionCode,
    externalReference: t.externalReference,
    status: t.status,
    paymentMethod: t.paymentMethod,
    paymentChannel: t.paymentChannel,
    grossAmount: t.grossAmount,
    mdrRate: t.mdrRate,
    mdrFeeAmount: t.mdrFeeAmount,
    netAmountAfterMdr: t.netAmountAfterMdr,
    currency: t.currency,
    transactionAt: t.transactionAt.toISOString(),
    settledAt: t.settledAt === null ? null : t.settledAt.toISOString(),
    settlementStatus: t.settlementStatus,
  };
}
