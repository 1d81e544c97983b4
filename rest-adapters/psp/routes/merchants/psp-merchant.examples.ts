import { DEMO } from '@lib/domain/demo/demo-ids';
import type { PspMerchant, PspOutlet, PspOwner } from './psp-merchant.schema';

/** The demo merchant as a bank's lookup shows it (lib/domain/demo/demo-ids.ts, subgraphs/merchant/src/seed/demo.seed.ts). */
export const DEMO_PSP_MERCHANT: PspMerchant = {
  id: DEMO.merchantId,
  merchant_name: 'Warung Kopi Demo',
  legal_name: 'CV Kopi Demo Nusantara',
  nmid: DEMO.outlets[0].nmid,
  bank_code: DEMO.bank.code,
  category_code: '5814',
  category_name: 'Kedai Kopi',
  phone: '+6281234567890',
  email: 'halo@kopidemo.example',
  npwp: '012345678901000',
  address: { line: 'Jl. Medan Merdeka Barat No. 1', city: 'Jakarta Pusat', province: 'DKI Jakarta', postal_code: '10110', country: 'ID' },
  status: 'active',
  kyc_status: 'verified',
  kyc_verified_at: '2026-11-02T09:15:00+07:00',
  created_at: '2026-11-02T09:00:00+07:00',
  updated_at: '2026-11-20T14:32:10+07:00',
};

export const DEMO_PSP_OUTLETS: PspOutlet[] = DEMO.outlets.map((outlet) => ({
  id: outlet.id,
  code: outlet.code,
  name: outlet.name,
  nmid: outlet.nmid,
  mid: null,
  nmid_status: 'active',
  is_default: outlet.isDefault,
  address: { line: 'Jl. Medan Merdeka Barat No. 1', city: 'Jakarta Pusat', province: 'DKI Jakarta', postal_code: '10110' },
  // The first outlet has an account of its own; the others are paid into the corporate account.
  settlement_account: outlet.isDefault
    ? {
        source: 'outlet',
        bank_code: '014',
        account_number: '8730012345',
        holder_name: 'BUDI SANTOSO',
        effective_since: '2026-11-03T10:00:00+07:00',
      }
    : {
        source: 'corporate',
        bank_code: '009',
        account_number: '0123456789',
        holder_name: 'PT TOKO DEMO SEJAHTERA',
        effective_since: '2026-11-02T09:30:00+07:00',
      },
}));

export const DEMO_PSP_OWNER: PspOwner = {
  user_id: DEMO.owner.userId,
  full_name: DEMO.owner.fullName,
  phone: '+62812****0001',
  email: null,
  role: 'owner',
  since: '2026-11-02T09:00:00+07:00',
};
