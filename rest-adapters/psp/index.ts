import type { RestAdapter } from '../../lib/rest/route';
import byNmid from './routes/merchants/by-nmid';
import detail from './routes/merchants/detail';
import list from './routes/merchants/list';
import search from './routes/merchants/search';
import { PSP_SCHEMAS } from './routes/merchants/psp-merchant.schema';

/** psp-api.md: bank lookups (/api/psp/v1), HMAC-signed per DESIGN.md §4. Event and settlement intake arrive next. */
export const pspAdapter: RestAdapter = {
  name: 'psp',
  description: 'Bank PSP integration API (psp-api.md): HMAC-signed merchant lookups, payment events and settlements.',
  schemas: PSP_SCHEMAS,
  routes: [list, search, byNmid, detail],
};
