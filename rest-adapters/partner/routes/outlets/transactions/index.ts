import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireOutletsEnabled, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { TransactionsQuery } from '@rest-adapters/partner/routes/merchants/transactions/schema';
import { transactionWindow } from '@rest-adapters/partner/routes/merchants/transactions/transaction-window';
import { PartnerOutletTransactionsDocument } from '@rest-adapters/generated/operations';
import { OutletParams, loadScopedMerchant, outletOf } from '../partner-outlet';
import { OutletTransactionsA, OutletTransactionsB, OutletTransactionsResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import {
  CONTRACT_A,
  CONTRACT_B,
  DEMO_PARTNER_SUMMARY,
  DEMO_PARTNER_TRANSACTION,
  DEMO_PARTNER_TRANSACTION_B,
} from '@rest-adapters/partner/routes/partner.examples';

/**
 * partner-api.md §4 outlet endpoints: the merchant transactions endpoint (same parameters and bodies per
 * contract, transaction-window.ts) restricted to one live outlet, with outlet_id in the body.
 */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/outlets/:outlet_id/transactions',
  summary: 'Transactions of one outlet of a merchant in the calling partner’s scope',
  description: [
    'Scope `transaction.read`. The outlet endpoints are enabled per credential by an operator (`outlets_enabled`); that switch is checked first, so without it every outlet endpoint answers 403 `forbidden`.',
    '',
    '- Exactly `GET /api/partner/v1/merchants/{merchant_id}/transactions` (same parameters, bodies and totals per contract) restricted to this outlet, with `outlet_id` after `merchant_id` in the body. Items carry `outlet_id` (our outlet id) and no device or gateway identifiers (no NMID, MID, TID or terminal id).',
    '- 403 `forbidden`: outlet endpoints not enabled, scope missing, or the merchant is outside the partner’s scope.',
    '- 404 `not_found`: any `outlet_id` that is not a live outlet of this merchant (another merchant’s, deleted, unknown or malformed).',
  ].join('\n'),
  tags: ['partner: outlets'],
  schema: {
    params: OutletParams,
    querystring: TransactionsQuery,
    response: { 200: OutletTransactionsResponse, ...errorResponses(400, 401, 403, 404, 429) },
  },
  operationId: 'PartnerOutletTransactions',
  examples: {
    params: { merchant_id: DEMO.merchantId, outlet_id: DEMO.outlets[0].id },
    query: { period: 'daily', anchor_date: '2026-11-25' },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            merchant_id: DEMO.merchantId,
            outlet_id: DEMO.outlets[0].id,
            merchant_name: 'Warung Kopi Demo',
            merchant_status: 'active',
            period: 'daily',
            period_start_at: '2026-11-25T00:00:00+07:00',
            period_end_at: '2026-11-25T23:59:59+07:00',
            summary: DEMO_PARTNER_SUMMARY,
            items: [DEMO_PARTNER_TRANSACTION],
          },
        },
        contract_b: {
          summary: CONTRACT_B,
          value: { merchant_id: DEMO.merchantId, outlet_id: DEMO.outlets[0].id, items: [DEMO_PARTNER_TRANSACTION_B], count: 1 },
        },
      },
    },
  },
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params, query }, ctx) => {
    requireOutletsEnabled(ctx.request);
    const principal = requireScope(ctx.principal, 'transaction.read');
    const body = await transactionWindow(principal, query, async (variables) => {
      const merchant = await loadScopedMerchant(ctx, principal, PartnerOutletTransactionsDocument, params.merchant_id, {
        outletId: params.outlet_id,
        ...variables,
      });
      outletOf(merchant.outlets, params.outlet_id);
      return merchant;
    });
    ctx.serializeAs(principal.contract === 'A' ? OutletTransactionsA : OutletTransactionsB);
    return { ...body, outlet_id: params.outlet_id.toLowerCase() };
  },
});
