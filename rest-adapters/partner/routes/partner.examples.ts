import { DEMO } from '@lib/domain/demo/demo-ids';
import type { PartnerOutlet } from './outlets/partner-outlet';

/**
 * Examples of the partner API from the demo data (lib/domain/demo/demo-ids.ts): the demo partner, which referred the demo
 * merchant and Minimarket Sejahtera; contract A renders times in Asia/Jakarta (+07:00).
 */
const minimarket = DEMO.otherMerchants[1];

export const PARTNER_EXAMPLE = {
  partnerId: DEMO.partner.id,
  merchantId: DEMO.merchantId,
  outletId: DEMO.outlets[0].id,
  token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwMTlhMDAwMC0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMGYxMDEiLCJleHAiOjE3OTUwNTYzMDB9.c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxlLXRva2Vu',
};

export const DEMO_PARTNER_OUTLET: PartnerOutlet = {
  outlet_id: DEMO.outlets[0].id,
  merchant_id: DEMO.merchantId,
  outlet_code: DEMO.outlets[0].code,
  outlet_name: DEMO.outlets[0].name,
  is_default: true,
  nmid: DEMO.outlets[0].nmid,
  nmid_status: 'active',
  mid: 'MDEMO0001',
  address_line: 'Jl. Kebon Sirih No. 10',
  city: 'Jakarta Pusat',
  province: 'DKI Jakarta',
  postal_code: '10340',
  device_count: 1,
  created_at: '2026-11-02T09:00:00+07:00',
};

export const DEMO_PARTNER_TRANSACTION = {
  id: '019abc4e-7f10-7a3c-9d2e-5b1f0c8e4a30',
  transaction_code: 'TRX-20261125-000123',
  external_reference: 'REF20261125000123',
  transaction_status: 'success' as const,
  payment_method: 'QRIS',
  payment_channel: 'BDEMO',
  gross_amount: 25000,
  transaction_at: '2026-11-25T09:41:27+07:00',
  settled_at: '2026-11-26T02:15:00+07:00',
  outlet_id: DEMO.outlets[0].id,
};

/** Contract A's summary of the example day: the one transaction, at the demo merchant's default outlet. */
export const DEMO_PARTNER_SUMMARY = {
  gross_amount: 25000,
  transaction_count: 1,
  outlet_breakdown: [{ outlet_id: DEMO.outlets[0].id, gross_amount: 25000, transaction_count: 1 }],
};

export const DEMO_REFERRALS = [
  { id: DEMO.merchantId, code: DEMO.merchantCode, name: 'Warung Kopi Demo', defaultOutletId: DEMO.outlets[0].id },
  { id: minimarket.id, code: minimarket.code, name: minimarket.name, defaultOutletId: minimarket.outlets[0].id },
];

/**
 * The names of a response's two examples, one per contract (`namedResponses`, lib/rest/route.ts): the credential's
 * contract decides which one a partner gets. Contract B's times are UTC (the partner adapter's time rule).
 */
export const CONTRACT_A = 'Contract A';
export const CONTRACT_B = 'Contract B';

/** The transaction of DEMO_PARTNER_TRANSACTION as contract B renders it: MDR breakdown, currency, UTC times. */
export const DEMO_PARTNER_TRANSACTION_B = {
  id: DEMO_PARTNER_TRANSACTION.id,
  merchant_id: DEMO.merchantId,
  transaction_code: DEMO_PARTNER_TRANSACTION.transaction_code,
  transaction_status: 'success' as const,
  payment_method: 'QRIS',
  payment_channel: 'BDEMO',
  gross_amount: 25000,
  mdr_rate: 0.007,
  mdr_fee_amount: 175,
  net_amount_after_mdr: 24825,
  currency: 'IDR',
  transaction_at: '2026-11-25T02:41:27.000Z',
  settled_at: '2026-11-25T19:15:00.000Z',
  settlement_status: 'settled',
  outlet_id: DEMO.outlets[0].id,
};

/** The demo merchant's two outlets (Pusat, the default, and Menteng) as contract A renders them (+07:00), and B (UTC). */
const withMenteng = (pusat: PartnerOutlet): PartnerOutlet[] => [
  pusat,
  {
    ...pusat,
    outlet_id: DEMO.outlets[1].id,
    outlet_code: DEMO.outlets[1].code,
    outlet_name: DEMO.outlets[1].name,
    is_default: false,
    nmid: DEMO.outlets[1].nmid,
    mid: 'MDEMO0002',
    address_line: 'Jl. HOS Cokroaminoto No. 21',
    postal_code: '10310',
  },
];
export const DEMO_PARTNER_OUTLETS_A = withMenteng(DEMO_PARTNER_OUTLET);
export const DEMO_PARTNER_OUTLETS_B = withMenteng({ ...DEMO_PARTNER_OUTLET, created_at: '2026-11-02T02:00:00.000Z' });
