import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { type UserPrincipal, userAuth } from '@rest-adapters/core/auth/user-auth';
import { actingForMerchant } from '@rest-adapters/core/routes/shared/viewer-membership';
import { ViewerFeeOverchargesDocument } from '@rest-adapters/generated/operations';
import { FeeOverchargesQuery, FeeOverchargesResponse } from './schema';

/**
 * The owner's MDR fee guard (docs/decisions/0240-mdr-policy.md): per month, the MDR fees the banks reported against the
 * policy's, and what they charged above it. An addition to core-api.md (CHANGELOG.md).
 */
export default defineRoute({
  method: 'GET',
  url: '/merchant/fee-overcharges',
  summary: 'MDR the banks charged above the policy, per month',
  description: [
    'The fee guard of the owner’s merchant, one entry per month from `from` to `to` (YYYY-MM in Asia/Jakarta; default the 12 months up to the current one; at most 24), oldest first.',
    '',
    '- Each transaction’s expected MDR fee is the MDR policy’s (Bank Indonesia’s QRIS MDR by the merchant’s criteria, category segment, the amount and the transaction’s time): `mdr_fee_amount` of `GET /merchant/transactions`. A bank reports its own fee with each payment; a fee above the policy’s is an overcharge.',
    '- A settlement is flagged when it settled its whole gross and its MDR total is above the policy’s fees of the transactions it settled.',
    '- Only the merchant’s owner may read it: any other member answers 403. A user without a merchant answers nulls and no months.',
  ].join('\n'),
  tags: ['core: merchant'],
  schema: { querystring: FeeOverchargesQuery, response: { 200: FeeOverchargesResponse, ...errorResponses(400, 401, 403) } },
  operationId: 'ViewerFeeOvercharges',
  examples: {
    query: { from: '2026-10', to: '2026-11' },
    responses: {
      200: {
        merchant_id: DEMO.merchantId,
        merchant_name: 'Warung Kopi Demo',
        total_overcharge_amount: 300,
        months: [
          {
            month: '2026-10',
            transaction_count: 412,
            overcharged_count: 0,
            bank_fee_amount: 0,
            expected_fee_amount: 0,
            overcharge_amount: 0,
            settlements_overcharged: 0,
            settlement_overcharge_amount: 0,
          },
          {
            month: '2026-11',
            transaction_count: 398,
            overcharged_count: 1,
            bank_fee_amount: 1800,
            expected_fee_amount: 1500,
            overcharge_amount: 300,
            settlements_overcharged: 1,
            settlement_overcharge_amount: 300,
          },
        ],
      },
    },
  },
  authenticate: userAuth,
  run: async ({ query }, ctx) => {
    const scope = await actingForMerchant(ctx, ctx.principal as UserPrincipal);
    if (!scope) return { merchant_id: null, merchant_name: null, total_overcharge_amount: 0, months: [] };
    const data = await ctx.execute(
      ViewerFeeOverchargesDocument,
      { from: query.from ?? null, to: query.to ?? null },
      { acting: scope.acting },
    );
    const m = data.viewerMembership!.merchant;
    const months = m.mdrOverchargeMonths.map((row) => ({
      month: row.month,
      transaction_count: row.transactionCount,
      overcharged_count: row.overchargedCount,
      bank_fee_amount: row.bankFeeAmount,
      expected_fee_amount: row.expectedFeeAmount,
      overcharge_amount: row.overchargeAmount,
      settlements_overcharged: row.settlementsOvercharged,
      settlement_overcharge_amount: row.settlementOverchargeAmount,
    }));
    return {
      merchant_id: m.id,
      merchant_name: m.name,
      total_overcharge_amount: months.reduce((sum, row) => sum + row.overcharge_amount, 0),
      months,
    };
  },
});
