import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { type UserPrincipal, userAuth } from '@rest-adapters/core/auth/user-auth';
import { makassarPeriod } from '@rest-adapters/core/routes/shared/merchant-period';
import { actingForMerchant } from '@rest-adapters/core/routes/shared/viewer-membership';
import { ViewerMerchantTransactionsDocument } from '@rest-adapters/generated/operations';
import { MerchantTransactionsResponse, TransactionsQuery } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

/** Newest items listed per period (the summary covers the whole period). */
export const MAX_ITEMS = 500;

const ZERO = { gross_amount: 0, mdr_fee_amount: 0, service_fee_amount: 0, net_amount: 0, transaction_count: 0 };

/**
 * core-api.md §4: the active merchant's transactions of today, this week (Monday–Sunday), month or year in
 * Asia/Makassar; the summary over `success` only. Without an active merchant: zero summary, no items.
 */
export default defineRoute({
  method: 'GET',
  url: '/merchant/transactions',
  summary: 'The merchant’s transactions of a period',
  description: [
    'The calendar period that contains now, in Asia/Makassar (+08:00): `today` (default), `week` (Monday to Sunday), `month` or `year`.',
    '',
    '- `summary` covers the whole period and counts `success` transactions only: `service_fee_amount` is the sum of their platform fees (the daily service fee), `net_amount` = gross − MDR − service fees.',
    '- `items`: the period’s transactions of every status, newest first, at most 500.',
    '- Only an `active` merchant has data: a merchant in any other status answers its id, name and status with a zero summary and no items; a user without a merchant answers nulls, a zero summary and no items.',
  ].join('\n'),
  tags: ['core: merchant'],
  schema: { querystring: TransactionsQuery, response: { 200: MerchantTransactionsResponse, ...errorResponses(400, 401) } },
  operationId: 'ViewerMerchantTransactions',
  examples: {
    query: { period: 'today' },
    responses: {
      200: {
        merchant_id: DEMO.merchantId,
        merchant_name: 'Warung Kopi Demo',
        merchant_status: 'active',
        period: 'today',
        period_start_at: '2026-11-25T00:00:00.000+08:00',
        period_end_at: '2026-11-25T23:59:59.999+08:00',
        summary: { gross_amount: 25000, mdr_fee_amount: 175, service_fee_amount: 250, net_amount: 24575, transaction_count: 1 },
        items: [
          {
            id: '019abc4e-7f10-7a3c-9d2e-5b1f0c8e4a30',
            transaction_code: 'TRX-20261125-000123',
            transaction_status: 'success',
            payment_method: 'QRIS',
            payment_channel: 'BDEMO',
            gross_amount: 25000,
            mdr_rate: 0.007,
            mdr_fee_amount: 175,
            net_amount_after_mdr: 24825,
            daily_service_fee_amount: 250,
            transaction_at: '2026-11-25T10:41:27.000+08:00',
          },
        ],
      },
    },
  },
  authenticate: userAuth,
  run: async ({ query }, ctx) => {
    const period = query.period ?? 'today';
    const bounds = makassarPeriod(period, new Date());
    const frame = { period, period_start_at: bounds.startAt, period_end_at: bounds.endAt };
    const scope = await actingForMerchant(ctx, ctx.principal as UserPrincipal);
    if (!scope || scope.membership.merchant.status !== 'active') {
      const m = scope?.membership.merchant;
      return {
        merchant_id: m?.id ?? null,
        merchant_name: m?.name ?? null,
        merchant_status: m?.status ?? null,
        ...frame,
        summary: ZERO,
        items: [],
      };
    }
    const data = await ctx.execute(
      ViewerMerchantTransactionsDocument,
      { from: bounds.start.toISOString(), before: bounds.end.toISOString(), limit: MAX_ITEMS },
      { acting: scope.acting },
    );
    const m = data.viewerMembership!.merchant;
    const s = m.transactionPeriodSummary;
    return {
      merchant_id: m.id,
      merchant_name: m.name,
      merchant_status: m.status,
      ...frame,
      summary: {
        gross_amount: s.grossAmount,
        mdr_fee_amount: s.mdrFeeAmount,
        service_fee_amount: s.serviceFeeAmount,
        net_amount: s.netAmount,
        transaction_count: s.count,
      },
      items: m.merchantTransactions.map((t) => ({
        id: t.id,
        transaction_code: t.transactionCode,
        transaction_status: t.status,
        payment_method: t.paymentMethod,
        payment_channel: t.paymentChannel,
        gross_amount: t.grossAmount,
        mdr_rate: Number(t.mdrRate),
        mdr_fee_amount: t.mdrFeeAmount,
        net_amount_after_mdr: t.netAmountAfterMdr,
        daily_service_fee_amount: t.platformFee,
        transaction_at: t.transactionAt,
      })),
    };
  },
});
