import type { PspMerchant, PspMerchantDetail, PspOutlet } from './psp-merchant.schema';

/** The merchant as the PSP operations select it (GraphQL, camelCase). */
export interface MerchantData {
  id: string;
  name: string;
  legalName: string | null;
  status: string;
  categoryCode: string | null;
  categoryName: string | null;
  phone: string | null;
  email: string | null;
  npwp: string | null;
  address: { line: string | null; city: string | null; province: string | null; postalCode: string | null; country: string };
  kycStatus: string;
  kycVerifiedAt: string | null;
  bankCode: string | null;
  createdAt: string;
  updatedAt: string;
  nmid: string | null;
  terminal?: { model: string | null; status: string } | null;
  outlets?: OutletData[];
}

export interface OutletData {
  id: string;
  code: string;
  name: string;
  nmid: string | null;
  mid: string | null;
  nmidStatus: string;
  isDefault: boolean;
  addressLine: string | null;
  city: string | null;
  province: string | null;
  postalCode: string | null;
}

/** Stored lifecycle → what a bank sees (DESIGN.md §9): draft and inactive are both `inactive`. */
const STATUS: Record<string, PspMerchant['status']> = {
  draft: 'inactive',
  inactive: 'inactive',
  active: 'active',
  suspended: 'suspended',
  deleted: 'deleted',
};

export function toPspMerchant(m: MerchantData): PspMerchant {
  return {
    id: m.id,
    merchant_name: m.name,
    legal_name: m.legalName,
    nmid: m.nmid,
    bank_code: m.bankCode,
    category_code: m.categoryCode,
    category_name: m.categoryName,
    phone: m.phone,
    email: m.email,
    npwp: m.npwp,
    address: {
      line: m.address.line,
      city: m.address.city,
      province: m.address.province,
      postal_code: m.address.postalCode,
      country: m.address.country,
    },
    status: STATUS[m.status] ?? 'inactive',
    kyc_status: m.kycStatus,
    kyc_verified_at: m.kycVerifiedAt,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

export function toPspOutlet(o: OutletData): PspOutlet {
  return {
    id: o.id,
    code: o.code,
    name: o.name,
    nmid: o.nmid,
    mid: o.mid,
    nmid_status: o.nmidStatus,
    is_default: o.isDefault,
    address: { line: o.addressLine, city: o.city, province: o.province, postal_code: o.postalCode },
  };
}

/** Detail and by-NMID share this body; owners stay empty until user accounts exist. */
export function toPspMerchantDetail(m: MerchantData): PspMerchantDetail {
  return {
    merchant: { ...toPspMerchant(m), device_model: m.terminal?.model ?? null, device_status: m.terminal?.status ?? null },
    outlets: (m.outlets ?? []).map(toPspOutlet),
    owners: [],
  };
}
