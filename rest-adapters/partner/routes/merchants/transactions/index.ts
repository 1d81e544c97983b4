import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PARTNER_RATE_LIMIT, partnerAuth, requireScope } from '@rest-adapters/partner/auth/partner-auth';
import { MerchantIdParams, scopedTo } from '@rest-adapters/partner/routes/partner-data';
import { PartnerMerchantTransactionsDocument } from '@rest-adapters/generated/operations';
import { TransactionsA, TransactionsB, TransactionsQuery, TransactionsResponse } from './schema';
import { transactionWindow } from './transaction-window';
import { DEMO } from '@lib/domain/demo/demo-ids';
import {
  CONTRACT_A,
  CONTRACT_B,
  DEMO_PARTNER_SUMMARY,
  DEMO_PARTNER_TRANSACTION,
  DEMO_PARTNER_TRANSACTION_B,
} from '@rest-adapters/partner/routes/partner.examples';

/**
 * partner-api.md §4 (windows: transaction-window.ts). One operation: `partnerMerchants` is the merchant
 * subgraph's scope wall (empty outside the scope → 403), and the transaction subgraph, reached only through
 * its answer, also requires the merchant in the principal's merchantIds.
 */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/transactions',
  summary: 'List transactions of a merchant in the calling partner’s scope',
  description:
    'Scope transaction.read. Contract A: period, anchor_date. Contract B: transaction_at_from, transaction_at_to, status, limit.',
  tags: ['partner: transactions'],
  schema: {
    params: MerchantIdParams,
    querystring: TransactionsQuery,
    response: { 200: TransactionsResponse, ...errorResponses(400, 401, 403, 429) },
  },
  operationId: 'PartnerMerchantTransactions',
  examples: {
    params: { merchant_id: DEMO.merchantId },
    query: { period: 'daily', anchor_date: '2026-11-25' },
    namedResponses: {
      200: {
        contract_a: {
          summary: CONTRACT_A,
          value: {
            merchant_id: DEMO.merchantId,

            merchant_name: 'Warung Kopi Demo',
            merchant_status: 'active',
            period: 'daily',
            period_start_at: '2026-11-25T00:00:00+07:00',
            period_end_at: '2026-11-25T23:59:59+07:00',
            summary: DEMO_PARTNER_SUMMARY,
            items: [DEMO_PARTNER_TRANSACTION],
          },
        },
        contract_b: { summary: CONTRACT_B, value: { merchant_id: DEMO.merchantId, items: [DEMO_PARTNER_TRANSACTION_B], count: 1 } },
      },
    },
  },
  authenticate: partnerAuth,
  rateLimit: PARTNER_RATE_LIMIT,
  run: async ({ params, query }, ctx) => {
    const principal = requireScope(ctx.principal, 'transaction.read');
    const body = await transactionWindow(principal, query, async (variables) => {
      const { partnerMerchants } = await ctx.execute(
        PartnerMerchantTransactionsDocument,
        { merchantId: params.merchant_id, ...variables },
        { acting: scopedTo(principal, [params.merchant_id]) },
      );
      if (!partnerMerchants[0]) throw new HttpError(403, 'forbidden', 'the merchant is outside the partner’s scope');
      return partnerMerchants[0].merchant;
    });
    ctx.serializeAs(principal.contract === 'A' ? TransactionsA : TransactionsB);
    return body;
  },
});
