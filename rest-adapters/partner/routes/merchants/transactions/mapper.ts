import type { PeriodWindow, Period } from '@rest-adapters/partner/routes/jakarta-time';
import { toPartnerMerchantStatus, toPartnerTransactionStatus } from '@rest-adapters/partner/routes/partner-data';
import type { PartnerMerchantTransactionsQuery, PartnerTransactionFieldsFragment } from '@rest-adapters/generated/operations';
import type { TransactionsA, TransactionsB } from './schema';

/** A merchant with its page of transactions (merchantTransactionPage) and, for contract A, the window's totals. */
export type MerchantTransactionsData = PartnerMerchantTransactionsQuery['partnerMerchants'][number]['merchant'];

/**
 * The page's rows, typed. merchantTransactionPage is a list of JSONObject scalars (docs/decisions/0018-transaction-lists-and-paging.md),
 * so the schema does not type them; each row carries exactly the fields of PartnerTransactionFields with the values
 * merchantTransactions gives them (the subgraph's PAGE_ROW_FIELDS; test/e2e/partner-transaction-page.spec.ts
 * compares the two through the gateway).
 */
function rowsOf(m: MerchantTransactionsData): PartnerTransactionFieldsFragment[] {
  return m.merchantTransactionPage as PartnerTransactionFieldsFragment[];
}

/** One outlet's success totals (TransactionTotals.outletBreakdown) as partner-api.md §1's outlet_breakdown entry. */
export function toOutletTotals(o: { outlet: { id: string } | null; grossAmount: number; count: number }) {
  return { outlet_id: o.outlet?.id ?? null, gross_amount: o.grossAmount, transaction_count: o.count };
}

/** Contract A; its times are rendered by the adapter's time rule (Asia/Jakarta, lib/time/api-time.ts). */
export function toTransactionsA(m: MerchantTransactionsData, period: Period, window: PeriodWindow): TransactionsA {
  return {
    merchant_id: m.id,
    merchant_name: m.name,
    merchant_status: toPartnerMerchantStatus(m.status),
    period,
    period_start_at: window.startAt,
    period_end_at: window.endAt,
    summary: {
      gross_amount: m.transactionTotals?.grossAmount ?? 0,
      transaction_count: m.transactionTotals?.count ?? 0,
      outlet_breakdown: (m.transactionTotals?.outletBreakdown ?? []).map(toOutletTotals),
    },
    items: rowsOf(m).map((t) => ({
      id: t.id,
      transaction_code: t.transactionCode,
      external_reference: t.externalReference,
      transaction_status: toPartnerTransactionStatus(t.status),
      payment_method: t.paymentMethod,
      payment_channel: t.paymentChannel,
      gross_amount: t.grossAmount,
      transaction_at: t.transactionAt,
      settled_at: t.settledAt,
      outlet_id: t.outletId,
    })),
  };
}

export function toTransactionsB(m: MerchantTransactionsData): TransactionsB {
  const items = rowsOf(m).map((t) => ({
    id: t.id,
    merchant_id: m.id,
    transaction_code: t.transactionCode,
    transaction_status: toPartnerTransactionStatus(t.status),
    payment_method: t.paymentMethod,
    payment_channel: t.paymentChannel,
    gross_amount: t.grossAmount,
    mdr_rate: Number(t.mdrRate),
    mdr_fee_amount: t.mdrFeeAmount,
    net_amount_after_mdr: t.netAmountAfterMdr,
    currency: t.currency,
    transaction_at: t.transactionAt,
    settled_at: t.settledAt,
    settlement_status: t.settlementStatus,
    outlet_id: t.outletId,
  }));
  return { merchant_id: m.id, items, count: items.length };
}
