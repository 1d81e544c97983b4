import { HttpError } from '@lib/rest/error-body';
import type { PspMerchantByNmidQuery } from '@rest-adapters/generated/operations';
import { toPspMerchantDetail } from '../psp-merchant.mapper';
import type { PspMerchantDetail } from '../psp-merchant.schema';

/** An NMID of another bank, an unknown one and one whose merchant is hidden from the bank are the same 404. */
export function toByNmidResponse({ outletByNmid }: PspMerchantByNmidQuery): PspMerchantDetail {
  if (!outletByNmid?.merchant) throw new HttpError(404, 'not_found', 'no merchant with this NMID');
  return toPspMerchantDetail(outletByNmid.merchant);
}
