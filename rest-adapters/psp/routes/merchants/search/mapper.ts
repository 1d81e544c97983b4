import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { HttpError } from '@lib/rest/error-body';
import type { PspMerchantFieldsFragment } from '@rest-adapters/generated/operations';
import { toPspMerchant } from '../psp-merchant.mapper';
import type { SearchQuery, SearchResponse } from './schema';

export interface SearchCriteria {
  phone: string | null;
  email: string | null;
  npwp: string | null;
  nmid: string | null;
}

/** Normalised criteria; at least one is required (400 otherwise). A number that is not Indonesian matches nothing. */
export function criteriaOf(query: SearchQuery): SearchCriteria {
  if (!query.phone && !query.email && !query.npwp && !query.nmid) {
    throw new HttpError(400, 'bad_request', 'give at least one of phone, email, npwp, nmid');
  }
  return {
    phone: query.phone ? (toIndonesianE164(query.phone) ?? query.phone) : null,
    email: query.email?.trim() ?? null,
    npwp: query.npwp ? query.npwp.replace(/[.\-\s]/g, '') : null,
    nmid: query.nmid ?? null,
  };
}

/** With an NMID the merchant comes from the outlet; the other given criteria must match it too. */
export function matches(m: PspMerchantFieldsFragment, c: SearchCriteria): boolean {
  return (
    (!c.phone || m.phone === c.phone) && (!c.email || m.email?.toLowerCase() === c.email.toLowerCase()) && (!c.npwp || m.npwp === c.npwp)
  );
}

export function toSearchResponse(merchants: PspMerchantFieldsFragment[]): SearchResponse {
  const items = merchants.map(toPspMerchant);
  return { items, meta: { returned_count: items.length } };
}
