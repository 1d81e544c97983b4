import type { RestAdapter } from '../../lib/rest/route';
import token from './routes/auth/token';

/** partner-api.md: token exchange and read-only merchant data (/api/partner/v1). */
export const partnerAdapter: RestAdapter = {
  name: 'partner',
  description: 'Partner read-only API (partner-api.md): token exchange, referral merchants, transactions, scoring.',
  routes: [token],
};
