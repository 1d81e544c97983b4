import type { RestAdapter } from '@lib/rest/route';
import { JAKARTA_TIMES, UTC_TIMES } from '@lib/time/api-time';
import { API_TAGS } from '../api-tags';
import token from './routes/auth/token';
import scoringSummary from './routes/merchants/scoring-summary';
import outletDetail from './routes/outlets/detail';
import outletDevices from './routes/outlets/devices';
import outlets from './routes/outlets/list';
import outletTransactions from './routes/outlets/transactions';
import transactions from './routes/merchants/transactions';
import referralMerchants from './routes/referral-merchants/list';
import referralSummary from './routes/referral-merchants/summary';

/** partner-api.md: token exchange and read-only merchant data (/api/partner/v1). */
export const partnerAdapter: RestAdapter = {
  name: 'partner',
  description: 'Partner read-only API (partner-api.md): token exchange, referral merchants, transactions, scoring, outlets.',
  // partner-api.md: contract A in +07:00 (Asia/Jakarta); contract B fixes no offset: UTC (decision 0017).
  times: (principal) => (principal?.kind === 'partner' && principal.contract === 'B' ? UTC_TIMES : JAKARTA_TIMES),
  tags: API_TAGS.partner,
  routes: [
    token,
    referralMerchants,
    referralSummary,
    transactions,
    scoringSummary,
    outlets,
    outletDetail,
    outletDevices,
    outletTransactions,
  ],
};
