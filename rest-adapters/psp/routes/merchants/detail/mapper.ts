import { HttpError } from '@lib/rest/error-body';
import type { PspMerchantDetailQuery } from '@rest-adapters/generated/operations';
import { toPspMerchantDetail } from '../psp-merchant.mapper';
import type { PspMerchantDetail } from '../psp-merchant.schema';

/** Another bank's merchant and an unknown id are the same 404: a bank cannot probe for others' merchants. */
export function toDetailResponse({ merchant }: PspMerchantDetailQuery): PspMerchantDetail {
  if (!merchant) throw new HttpError(404, 'not_found', 'merchant not found');
  return toPspMerchantDetail(merchant);
}
