import type { RestAdapter } from '../../lib/rest/route';
import token from './routes/auth/token';
import scoringSummary from './routes/merchants/scoring-summary';
import transactions from './routes/merchants/transactions';
import referralMerchants from './routes/referral-merchants/list';
import referralSummary from './routes/referral-merchants/summary';

/** partner-api.md: token exchange and read-only merchant data (/api/partner/v1). The outlet endpoints are not built yet. */
export const partnerAdapter: RestAdapter = {
  name: 'partner',
  description: 'Partner read-only API (partner-api.md): token exchange, referral merchants, transactions, scoring.',
  routes: [token, referralMerchants, referralSummary, transactions, scoringSummary],
};
