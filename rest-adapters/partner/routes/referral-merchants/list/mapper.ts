import { toPartnerMerchantStatus } from '@rest-adapters/partner/routes/partner-data';
import type { PartnerMerchantData } from '../partner-merchants';
import type { ReferralMerchantsA, ReferralMerchantsB } from './schema';

/** Each merchant's default outlet id, by merchant id (PartnerReferralDefaultOutlets); absent: none. */
export type DefaultOutlets = ReadonlyMap<string, string>;

export function toReferralMerchantsA(
  partnerId: string,
  partnerCode: string,
  rows: PartnerMerchantData[],
  defaults: DefaultOutlets,
): ReferralMerchantsA {
  return {
    partner_id: partnerId,
    partner_code: partnerCode,
    items: rows.map((r) => ({
      merchant_id: r.merchant.id,
      merchant_code: r.merchant.merchantCode,
      merchant_name: r.merchant.name,
      merchant_status: toPartnerMerchantStatus(r.merchant.status),
      referral_code: r.referralCode,
      access_type: r.accessType as ReferralMerchantsA['items'][number]['access_type'],
      granted_at: r.grantedAt,
      default_outlet_id: defaults.get(r.merchantId) ?? null,
    })),
  };
}

export function toReferralMerchantsB(partnerId: string, rows: PartnerMerchantData[], defaults: DefaultOutlets): ReferralMerchantsB {
  const items = rows.map((r) => ({
    merchant_id: r.merchant.id,
    merchant_code: r.merchant.merchantCode,
    merchant_name: r.merchant.name,
    status: toPartnerMerchantStatus(r.merchant.status),
    referral_partner_id: r.referralPartnerId,
    default_outlet_id: defaults.get(r.merchantId) ?? null,
  }));
  return { partner_id: partnerId, items, count: items.length };
}
