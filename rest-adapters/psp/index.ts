import type { RestAdapter } from '@lib/rest/route';
import { UTC_TIMES } from '@lib/time/api-time';
import { API_TAGS } from '../api-tags';
import recordEvent from './routes/events/record';
import byNmid from './routes/merchants/by-nmid';
import detail from './routes/merchants/detail';
import list from './routes/merchants/list';
import nmidAssignment from './routes/merchants/nmid-assignment';
import search from './routes/merchants/search';
import { PSP_SCHEMAS } from './routes/merchants/psp-merchant.schema';
import recordSettlement from './routes/settlements/record';
import sandboxClock from './routes/sandbox/clock';
import sandboxClockAdvance from './routes/sandbox/clock-advance';
import sandboxPayment from './routes/sandbox/payments';
import sandboxReset from './routes/sandbox/reset';
import sandboxSettlement from './routes/sandbox/settlements';

/** psp-api.md: bank lookups and NMID assignment (/api/psp/v1), event and settlement intake (/psp/v1), a sandbox bank's own sandbox (/psp/v1/sandbox), HMAC-signed. */
export const pspAdapter: RestAdapter = {
  name: 'psp',
  description: 'Bank PSP integration API (psp-api.md): HMAC-signed merchant lookups, payment events and settlements.',
  tags: API_TAGS.psp,
  schemas: PSP_SCHEMAS,
  // psp-api.md fixes no offset: instants in UTC (docs/api/index.md, docs/decisions/0017-local-time-through-iana-zones.md).
  times: () => UTC_TIMES,
  routes: [
    list,
    search,
    byNmid,
    detail,
    nmidAssignment,
    recordEvent,
    recordSettlement,
    sandboxPayment,
    sandboxSettlement,
    sandboxClock,
    sandboxClockAdvance,
    sandboxReset,
  ],
};
