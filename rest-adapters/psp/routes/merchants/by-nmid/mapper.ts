import { HttpError } from '@lib/rest/error-body';
import { type MerchantData, toPspMerchantDetail } from '../psp-merchant.mapper';
import type { PspMerchantDetail } from '../psp-merchant.schema';

export interface PspMerchantByNmidData {
  outletByNmid: { merchant: MerchantData | null } | null;
}

/** An NMID of another bank, an unknown one and one whose merchant is hidden from the bank are the same 404. */
export function toByNmidResponse({ outletByNmid }: PspMerchantByNmidData): PspMerchantDetail {
  if (!outletByNmid?.merchant) throw new HttpError(404, 'not_found', 'no merchant with this NMID');
  return toPspMerchantDetail(outletByNmid.merchant);
}
