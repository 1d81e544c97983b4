import { HttpError, errorResponses } from '../../../../../lib/rest/error-body';
import { loadOperation } from '../../../../../lib/rest/operation';
import { defineRoute } from '../../../../../lib/rest/route';
import { partnerAuth, requireMerchantAccess, requireScope } from '../../../auth/partner-auth';
import { jakartaDate, periodWindow } from '../../jakarta-time';
import { MerchantIdParams, scopedTo, storedStatusesOf } from '../../partner-data';
import { type MerchantTransactionsData, toTransactionsA, toTransactionsB } from './mapper';
import { TransactionsQuery, TransactionsResponse } from './schema';

const operation = loadOperation(__dirname);
/** Contract A hard cap (partner-api.md §8). */
export const CONTRACT_A_CAP = 50;
const A_PARAMS = ['period', 'anchor_date'] as const;
const B_PARAMS = ['transaction_at_from', 'transaction_at_to', 'status', 'limit'] as const;

/**
 * partner-api.md §4. Contract A: the Asia/Jakarta day, Monday–Sunday week or calendar month containing
 * anchor_date, newest 50 items, summary over the whole window (success transactions). Contract B: an inclusive
 * transaction_at range, a status filter and limit ≤ 500. Transactions are read with the principal narrowed
 * to this merchant (after the merchant subgraph's scope check).
 */
export default defineRoute({
  method: 'GET',
  url: '/api/partner/v1/merchants/:merchant_id/transactions',
  summary: 'List transactions of a merchant in the calling partner’s scope',
  description: 'Scope transaction.read. Contract A: period, anchor_date. Contract B: transaction_at_from, transaction_at_to, status, limit.',
  tags: ['partner: transactions'],
  schema: { params: MerchantIdParams, querystring: TransactionsQuery, response: { 200: TransactionsResponse, ...errorResponses(400, 401, 403, 429) } },
  operation,
  authenticate: partnerAuth,
  rateLimit: { max: 60, windowSecs: 60 },
  handle: async ({ params, query }, runtime, req) => {
    const principal = requireScope(req.acting, 'transaction.read');
    const foreign = (principal.contract === 'A' ? B_PARAMS : A_PARAMS).filter((name) => query[name] !== undefined);
    if (foreign.length) throw new HttpError(400, 'bad_request', `querystring must NOT have ${foreign.join(', ')} (contract ${principal.contract})`);
    await requireMerchantAccess(runtime, params.merchant_id);
    const acting = scopedTo(principal, [params.merchant_id]);
    const load = async (variables: Record<string, unknown>) => {
      const { partnerMerchants } = await runtime.run<{ partnerMerchants: { merchant: MerchantTransactionsData }[] }>(
        operation,
        { merchantId: params.merchant_id, from: null, to: null, before: null, statuses: null, ...variables },
        { acting },
      );
      if (!partnerMerchants[0]) throw new HttpError(403, 'forbidden', 'the merchant is outside the partner’s scope');
      return partnerMerchants[0].merchant;
    };
    if (principal.contract === 'A') {
      const period = query.period ?? 'monthly';
      const window = periodWindow(period, query.anchor_date ?? jakartaDate(new Date()));
      const merchant = await load({ from: window.start.toISOString(), before: window.end.toISOString(), limit: CONTRACT_A_CAP, withTotals: true });
      return toTransactionsA(merchant, period, window);
    }
    const from = query.transaction_at_from ? new Date(query.transaction_at_from) : null;
    const to = query.transaction_at_to ? new Date(query.transaction_at_to) : null;
    if (from && to && from > to) throw new HttpError(400, 'bad_request', 'transaction_at_from must not be after transaction_at_to');
    const merchant = await load({
      from: from?.toISOString() ?? null,
      to: to?.toISOString() ?? null,
      statuses: query.status ? storedStatusesOf(query.status) : null,
      limit: query.limit ?? 50,
      withTotals: false,
    });
    return toTransactionsB(merchant);
  },
});
