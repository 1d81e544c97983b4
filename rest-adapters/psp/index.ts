import type { RestAdapter } from '../../lib/rest/route';

/** psp-api.md: bank lookups (/api/psp/v1), event and settlement intake (/psp/v1). Routes arrive with the PSP module. */
export const pspAdapter: RestAdapter = {
  name: 'psp',
  description: 'Bank PSP integration API (psp-api.md): HMAC-signed merchant lookups, payment events and settlements.',
  routes: [],
};
