import { HttpError } from '@lib/rest/error-body';
import type { PartnerPrincipal } from '@rest-adapters/partner/auth/partner-auth';
import { jakartaDate, periodWindow } from '@rest-adapters/partner/routes/jakarta-time';
import { storedStatusesOf } from '@rest-adapters/partner/routes/partner-data';
import { type MerchantTransactionsData, toTransactionsA, toTransactionsB } from './mapper';
import type { TransactionsA, TransactionsB, TransactionsQuery } from './schema';

/** Contract A hard cap (partner-api.md §8). */
export const CONTRACT_A_CAP = 50;
const A_PARAMS = ['period', 'anchor_date'] as const;
const B_PARAMS = ['transaction_at_from', 'transaction_at_to', 'status', 'limit'] as const;

/** Variables of the transaction operations: the window, statuses, limit and whether to total the window. */
export interface WindowVariables {
  from: string | null;
  to: string | null;
  before: string | null;
  statuses: string[] | null;
  limit: number;
  withTotals: boolean;
}

/**
 * The transaction list of partner-api.md §4 for the caller's contract, over whatever `load` reads (a merchant,
 * or one of its outlets). Contract A: the Asia/Jakarta day, Monday–Sunday week or calendar month containing
 * anchor_date, newest 50 items, summary over the whole window (success transactions). Contract B: an inclusive
 * transaction_at range, a status filter and limit ≤ 500. A parameter of the other contract is 400.
 */
export async function transactionWindow(
  principal: PartnerPrincipal,
  query: TransactionsQuery,
  load: (variables: WindowVariables) => Promise<MerchantTransactionsData>,
): Promise<TransactionsA | TransactionsB> {
  const foreign = (principal.contract === 'A' ? B_PARAMS : A_PARAMS).filter((name) => query[name] !== undefined);
  if (foreign.length)
    throw new HttpError(400, 'bad_request', `querystring must NOT have ${foreign.join(', ')} (contract ${principal.contract})`);
  if (principal.contract === 'A') {
    const period = query.period ?? 'monthly';
    const window = periodWindow(period, query.anchor_date ?? jakartaDate(new Date()));
    const merchant = await load({
      from: window.start.toISOString(),
      to: null,
      before: window.end.toISOString(),
      statuses: null,
      limit: CONTRACT_A_CAP,
      withTotals: true,
    });
    return toTransactionsA(merchant, period, window);
  }
  const from = query.transaction_at_from ? new Date(query.transaction_at_from) : null;
  const to = query.transaction_at_to ? new Date(query.transaction_at_to) : null;
  if (from && to && from > to) throw new HttpError(400, 'bad_request', 'transaction_at_from must not be after transaction_at_to');
  const merchant = await load({
    from: from?.toISOString() ?? null,
    to: to?.toISOString() ?? null,
    before: null,
    statuses: query.status ? storedStatusesOf(query.status) : null,
    limit: query.limit ?? 50,
    withTotals: false,
  });
  return toTransactionsB(merchant);
}
