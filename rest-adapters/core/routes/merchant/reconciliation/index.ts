import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { type UserPrincipal, userAuth } from '@rest-adapters/core/auth/user-auth';
import { actingForMerchant } from '@rest-adapters/core/routes/shared/viewer-membership';
import { ViewerMerchantReconciliationDocument } from '@rest-adapters/generated/operations';
import { toReconciliationResponse } from './mapper';
import { ReconciliationQuery, ReconciliationResponse } from './schema';

/**
 * Issue 50 §3: an outlet's business day reconciled three ways — the bank's settlements, the payments behind them and
 * the point of sale's orders paid by QRIS — with every difference (docs/decisions/0242-daily-reconciliation.md).
 */
export default defineRoute({
  method: 'GET',
  url: '/merchant/reconciliation',
  summary: 'The daily reconciliation of the merchant’s outlets',
  description: [
    'A business day (Asia/Jakarta, the day the bank’s settlements name) of each outlet the member sees, as the last run found it: the settlements (gross, MDR, net), the payments (success transactions), the point of sale’s orders paid by QRIS, and every difference.',
    '',
    'Runs: when a settlement arrives (its outlet and day, within seconds) and every day for the day before (`RECONCILIATION_RUN_AT`). A run replaces the day’s figures; a difference found again keeps its id and an operator’s resolution and note.',
    '',
    'Classes: `payment_without_settlement` (a payment no settlement covered), `settlement_without_payment` (a settlement that matched no payment), `amount_mismatch` (a settlement’s gross ≠ the payments it settled, or an order’s QRIS amount ≠ its dynamic payment), `fee_deviation` (the bank’s MDR — a settlement’s `mdr_total` or an event’s `mdr_fee_bank` — ≠ the fee we recorded), `qris_order_without_payment` (an order paid by QRIS at the point of sale with no payment: dynamic ones by bill number, static ones by amount within `RECONCILIATION_STATIC_MATCH_MINUTES`), `unmatched_payment` (a payment no order took, at an outlet that sells through the point of sale, or one naming a bill number it could not pay), `late_settlement` (received more than `RECONCILIATION_SETTLEMENT_DUE_HOURS` after the day ended).',
    '',
    'Owners see every outlet, admins and viewers their outlets; staff get 403. A user without a merchant gets no outlets.',
  ].join('\n'),
  tags: ['core: merchant'],
  schema: { querystring: ReconciliationQuery, response: { 200: ReconciliationResponse, ...errorResponses(400, 401, 403) } },
  operationId: 'ViewerMerchantReconciliation',
  examples: {
    query: { business_day: '2026-11-24' },
    responses: {
      200: {
        merchant_id: DEMO.merchantId,
        business_day: '2026-11-24',
        outlets: [
          {
            outlet_id: DEMO.outlets[0].id,
            status: 'differences',
            reconciled_at: '2026-11-25T23:00:04.120+08:00',
            settlement: { count: 1, gross_amount: 150000, mdr_amount: 1050, net_amount: 148950 },
            payments: { count: 3, gross_amount: 175000, mdr_fee_amount: 1225, settled_count: 2, settled_gross_amount: 150000 },
            pos_orders: { qris_count: 3, qris_amount: 175000, matched_count: 3 },
            difference_count: 1,
            open_difference_count: 1,
            differences: [
              {
                id: '019ac3f0-1d2e-7a40-8b1c-3e5f7a9c0d21',
                class: 'payment_without_settlement',
                subject: 'transaction:019ac3a2-6b10-7c55-9e0a-1f2d3c4b5a69',
                transaction_id: '019ac3a2-6b10-7c55-9e0a-1f2d3c4b5a69',
                settlement_ref: null,
                sales_order_id: null,
                expected_amount: 25000,
                reported_amount: 0,
                difference_amount: -25000,
                detail: { transaction_at: '2026-11-24T23:41:09.000+08:00' },
                resolution: 'open',
                note: null,
                resolved_at: null,
                first_found_at: '2026-11-25T10:02:11.310+08:00',
                last_found_at: '2026-11-25T23:00:04.120+08:00',
                cleared_at: null,
              },
            ],
          },
        ],
      },
    },
  },
  authenticate: userAuth,
  run: async ({ query }, ctx) => {
    const scope = await actingForMerchant(ctx, ctx.principal as UserPrincipal);
    if (!scope) return { merchant_id: null, business_day: query.business_day, outlets: [] };
    const data = await ctx.execute(
      ViewerMerchantReconciliationDocument,
      { businessDay: query.business_day, outletId: query.outlet_id ?? null },
      { acting: scope.acting },
    );
    return toReconciliationResponse(query.business_day, data);
  },
});
