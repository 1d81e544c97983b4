import type { ViewerMerchantReconciliationQuery } from '@rest-adapters/generated/operations';
import type { Static } from '@sinclair/typebox';
import type { ReconciliationResponse } from './schema';

type Response = Static<typeof ReconciliationResponse>;
type Difference = Response['outlets'][number]['differences'][number];

/** GraphQL data → the documented JSON (snake_case, the difference's detail as an object). */
export function toReconciliationResponse(businessDay: string, data: ViewerMerchantReconciliationQuery): Response {
  const merchant = data.viewerMembership?.merchant;
  return {
    merchant_id: merchant?.id ?? null,
    business_day: businessDay,
    outlets: (merchant?.reconciliationDays ?? []).map((d) => ({
      outlet_id: d.outletId,
      status: d.status as 'reconciled' | 'differences',
      reconciled_at: d.reconciledAt,
      settlement: {
        count: d.settlementCount,
        gross_amount: d.settlementGrossAmount,
        mdr_amount: d.settlementMdrAmount,
        net_amount: d.settlementNetAmount,
      },
      payments: {
        count: d.paymentCount,
        gross_amount: d.paymentGrossAmount,
        mdr_fee_amount: d.paymentMdrFeeAmount,
        settled_count: d.settledPaymentCount,
        settled_gross_amount: d.settledGrossAmount,
      },
      pos_orders: { qris_count: d.qrisOrderCount, qris_amount: d.qrisOrderAmount, matched_count: d.matchedOrderCount },
      difference_count: d.differenceCount,
      open_difference_count: d.openDifferenceCount,
      differences: d.differences.map((x): Difference => ({
        id: x.id,
        class: x.class as Difference['class'],
        subject: x.subject,
        transaction_id: x.transactionId ?? null,
        settlement_ref: x.settlementRef ?? null,
        sales_order_id: x.salesOrderId ?? null,
        expected_amount: x.expectedAmount ?? null,
        reported_amount: x.reportedAmount ?? null,
        difference_amount: x.differenceAmount ?? null,
        detail: JSON.parse(x.detail) as Difference['detail'],
        resolution: x.resolution as Difference['resolution'],
        note: x.note ?? null,
        resolved_at: x.resolvedAt ?? null,
        first_found_at: x.firstFoundAt,
        last_found_at: x.lastFoundAt,
        cleared_at: x.clearedAt ?? null,
      })),
    })),
  };
}
