import type { RestAdapter } from '@lib/rest/route';
import recordEvent from './routes/events/record';
import byNmid from './routes/merchants/by-nmid';
import detail from './routes/merchants/detail';
import list from './routes/merchants/list';
import nmidAssignment from './routes/merchants/nmid-assignment';
import search from './routes/merchants/search';
import { PSP_SCHEMAS } from './routes/merchants/psp-merchant.schema';
import recordSettlement from './routes/settlements/record';

/** psp-api.md: bank lookups and NMID assignment (/api/psp/v1) and event and settlement intake (/psp/v1), HMAC-signed. */
export const pspAdapter: RestAdapter = {
  name: 'psp',
  description: 'Bank PSP integration API (psp-api.md): HMAC-signed merchant lookups, payment events and settlements.',
  schemas: PSP_SCHEMAS,
  routes: [list, search, byNmid, detail, nmidAssignment, recordEvent, recordSettlement],
};
