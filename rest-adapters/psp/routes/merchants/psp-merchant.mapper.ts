import type {
  PspMerchantDetailFieldsFragment,
  PspMerchantFieldsFragment,
  PspOutletFieldsFragment,
} from '@rest-adapters/generated/operations';
import type { PspMerchant, PspMerchantDetail, PspOutlet, PspOwner } from './psp-merchant.schema';

/** Stored lifecycle → what a bank sees (DESIGN.md §9): draft and inactive are both `inactive`. */
const STATUS: Record<string, PspMerchant['status']> = {
  draft: 'inactive',
  inactive: 'inactive',
  active: 'active',
  suspended: 'suspended',
  deleted: 'deleted',
};

/** The merchant as the PSP operations select it (PspMerchantFields) → psp-api.md §2. */
export function toPspMerchant(m: PspMerchantFieldsFragment): PspMerchant {
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

export function toPspOutlet(o: PspOutletFieldsFragment): PspOutlet {
  return {
    id: o.id,
    code: o.code,
    name: o.name,
    nmid: o.nmid,
    mid: o.mid,
    nmid_status: o.nmidStatus,
    is_default: o.isDefault,
    address: { line: o.addressLine, city: o.city, province: o.province, postal_code: o.postalCode },
    settlement_account: o.effectiveSettlementAccount && {
      source: o.effectiveSettlementAccount.source === 'outlet' ? 'outlet' : 'corporate',
      bank_code: o.effectiveSettlementAccount.bankCode,
      account_number: o.effectiveSettlementAccount.accountNumber,
      holder_name: o.effectiveSettlementAccount.holderName,
      effective_since: o.effectiveSettlementAccount.effectiveAt,
    },
  };
}

type OwnerFields = NonNullable<PspMerchantDetailFieldsFragment['owners']>[number];

export function toPspOwner(o: OwnerFields): PspOwner {
  return { user_id: o.id, full_name: o.fullName, phone: o.phoneMasked, email: o.emailMasked, role: o.role, since: o.since };
}

/** Detail and by-NMID share this body; outlets and owners are empty unless the query asked for them. */
export function toPspMerchantDetail(m: PspMerchantDetailFieldsFragment): PspMerchantDetail {
  return {
    merchant: { ...toPspMerchant(m), device_model: m.terminal?.model ?? null, device_status: m.terminal?.status ?? null },
    outlets: (m.outlets ?? []).map(toPspOutlet),
    owners: (m.owners ?? []).map(toPspOwner),
  };
}
