import type { RestAdapter } from '../../lib/rest/route';

/** partner-api.md: token exchange and read-only merchant data (/api/partner/v1). Routes arrive with the partner module. */
export const partnerAdapter: RestAdapter = {
  name: 'partner',
  description: 'Partner read-only API (partner-api.md): token exchange, referral merchants, transactions, scoring.',
  routes: [],
};
