import { DEMO } from '@lib/domain/demo/demo-ids';
import { buildStaticQris, dynamicFromStatic } from '@lib/domain/qris/qris-payload';
import type { SessionBody } from './auth/session';
import type { PosCategory } from './routes/poslite/catalog/categories/pos-category';
import type { PosOutlet } from './routes/poslite/catalog/outlets/pos-outlet';
import type { PosProduct } from './routes/poslite/catalog/products/pos-product';
import type { QrisPayment } from './routes/poslite/payments/qris/qris-payment';
import type { TillClose } from './routes/poslite/till/closes/till-close';
import type { ProfileBody } from './routes/shared/user-profile';

/**
 * Examples of the core API (app, auth, internal, point of sale) from the demo data (lib/domain/demo/demo-ids.ts and the
 * subgraphs' demo seeds): the demo owner Pemilik Demo (+6281200000001) of Warung Kopi Demo, its outlets Pusat and
 * Menteng (NMIDs ID1026112200001/2), the seeded categories (Kopi, Minuman Dingin, Makanan Ringan). The app's own
 * times are Asia/Makassar (+08:00, core-api.md §2); the point-of-sale objects carry the GraphQL DateTime as the
 * gateway gives it (UTC); amounts are whole rupiah. Checked against the schemas by test/contracts/openapi.spec.ts.
 */
const PUSAT = DEMO.outlets[0];
const MENTENG = DEMO.outlets[1];

/** A phone as the app may type it and as the API answers it (E.164). */
export const DEMO_PHONE = { typed: '081200000001', e164: DEMO.owner.phone };

/** The device fields of a login (the app's random per-install id). */
export const DEMO_DEVICE = {
  platform_code: 'mobile_app',
  device_id: '5b0c6f0e-3d2a-4f7e-9c41-8e2d7a6b1f03',
  device_name: 'Samsung Galaxy A15',
};

/** A request id of /auth/request-otp, sent back to /auth/verify-otp. */
export const DEMO_OTP_REQUEST_ID = '019abc4e-61d0-7b2e-8f3a-2c9d4e5f6a71';

export const DEMO_SESSION: SessionBody = {
  status: 'verified',
  phone: DEMO.owner.phone,
  verified: true,
  token_type: 'Bearer',
  access_token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwMTlhMDAwMC0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMGEwMDEiLCJleHAiOjE3OTUwNTYzMDB9.c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxlLXRva2Vu',
  refresh_token: 'rt_7Qm2xK9vR4sT8wY1zB6nC3dF5gH0jL2p',
  expires_in_secs: 3600,
};

/** The demo owner's profile: Warung Kopi Demo, active (approved 2026-11-02 10:00 WITA). */
export const DEMO_PROFILE: ProfileBody = {
  user_id: DEMO.owner.userId,
  full_name: DEMO.owner.fullName,
  display_name: DEMO.owner.fullName,
  nik: '3171012001850003',
  gender: 'male',
  address_line: 'Jl. Cideng Barat No. 5, Jakarta Pusat',
  avatar_url: null,
  phone: DEMO.owner.phone,
  phone_verified: true,
  email: 'pemilik@kopidemo.example',
  email_verified: true,
  merchant_id: DEMO.merchantId,
  merchant_name: 'Warung Kopi Demo',
  merchant_status: 'active',
  merchant_contact_phone: '+6281234567890',
  merchant_contact_email: 'halo@kopidemo.example',
  merchant_address_line: 'Jl. Medan Merdeka Barat No. 1',
  merchant_province_name: 'Daerah Khusus Ibukota Jakarta',
  merchant_city_name: 'Jakarta Pusat',
  merchant_district_name: 'Gambir',
  merchant_subdistrict_name: 'Gambir',
  merchant_postal_code: '10110',
  merchant_business_type_id: 2,
  merchant_business_type_name: 'Kedai Kopi',
  merchant_business_scale_name: 'Usaha Mikro',
  merchant_average_monthly_revenue: 45_000_000,
  merchant_employee_count: 3,
  merchant_reviewed_at: '2026-11-02T10:00:00.000+08:00',
  merchant_device_fee_service_accepted: true,
  merchant_terms_of_service_accepted: true,
  merchant_privacy_policy_accepted: true,
};

/** The static QRIS of the Pusat outlet, as the outlet subgraph builds it (a real payload: CRC included). */
export const DEMO_STATIC_QRIS = buildStaticQris({
  nmid: PUSAT.nmid,
  merchantName: 'Warung Kopi Demo',
  merchantCity: 'Jakarta Pusat',
  mcc: '5814',
  criteria: 'UMI',
  postalCode: '10110',
});

export const DEMO_POS_OUTLET: PosOutlet = {
  id: PUSAT.id,
  merchant_id: DEMO.merchantId,
  code: PUSAT.code,
  name: PUSAT.name,
  address_line: 'Jl. Kebon Sirih No. 10',
  city: 'Jakarta Pusat',
  province: 'DKI Jakarta',
  phone: '+622131900001',
  nmid: PUSAT.nmid,
  qris_static_payload: DEMO_STATIC_QRIS,
  is_active: true,
  created_at: '2026-11-02T02:00:00.000Z',
  updated_at: '2026-11-02T02:00:00.000Z',
};

export const DEMO_POS_OUTLETS: PosOutlet[] = [
  DEMO_POS_OUTLET,
  {
    ...DEMO_POS_OUTLET,
    id: MENTENG.id,
    code: MENTENG.code,
    name: MENTENG.name,
    address_line: 'Jl. HOS Cokroaminoto No. 21',
    phone: '+622131900002',
    nmid: MENTENG.nmid,
    qris_static_payload: buildStaticQris({
      nmid: MENTENG.nmid,
      merchantName: 'Warung Kopi Demo',
      merchantCity: 'Jakarta Pusat',
      mcc: '5814',
      criteria: 'UMI',
      postalCode: '10310',
    }),
  },
];

/** The seeded categories (subgraphs/catalog/src/seed/demo.seed.ts). */
export const DEMO_POS_CATEGORIES: PosCategory[] = [
  ['Kopi', 'coffee'],
  ['Minuman Dingin', 'local_drink'],
  ['Makanan Ringan', 'cookie'],
].map(([name, icon], i) => ({
  id: `019a0000-0000-7000-8000-0000000c000${i + 1}`,
  merchant_id: DEMO.merchantId,
  name,
  parent_id: null,
  sort_order: i + 1,
  icon_name: icon,
  is_active: true,
  created_at: '2026-11-02T02:05:00.000Z',
  updated_at: '2026-11-02T02:05:00.000Z',
}));
export const DEMO_POS_CATEGORY = DEMO_POS_CATEGORIES[0];

export const DEMO_POS_PRODUCT: PosProduct = {
  id: '019abc4e-3a10-7c5d-8e21-4b6f9d0a7c12',
  merchant_id: DEMO.merchantId,
  category_id: DEMO_POS_CATEGORY.id,
  name: 'Es Kopi Susu Gula Aren',
  sku: 'KOPI-ESKSGA',
  product_type: 'good',
  sell_price_amount: 18_000,
  cost_price_amount: 7_500,
  unit_label: 'gelas',
  description: 'Espresso, susu segar dan gula aren, 250 ml.',
  image_url: null,
  tax_rate_bps: 0,
  track_stock: false,
  is_active: true,
  sort_order: 1,
  barcode: '8991234500017',
  created_at: '2026-11-03T01:12:00.000Z',
  updated_at: '2026-11-20T03:40:00.000Z',
};

/** A sale at the Pusat outlet: two iced coffees and a snack, paid 50,000 in cash (receipt date in Asia/Jakarta). */
export const DEMO_SALES_ORDER_HEADER = {
  id: '019abc4e-9c20-7d3e-a1b4-6f8e2c0d5a93',
  merchant_id: DEMO.merchantId,
  outlet_id: PUSAT.id,
  receipt_number: '20261125-000042',
  status: 'completed',
  source: 'pos_android',
  transacted_at: '2026-11-25T02:41:27.000Z',
  subtotal_amount: 48_000,
  total_amount: 48_000,
  paid_amount: 50_000,
  change_amount: 2_000,
  voided_at: null,
};

export const DEMO_SALES_ORDER = {
  ...DEMO_SALES_ORDER_HEADER,
  items: [
    {
      id: '019abc4e-9c20-7d3e-a1b4-6f8e2c0d5a94',
      line_no: 1,
      variant_id: '019abc4e-3a10-7c5d-8e21-4b6f9d0a7c13',
      sku_snapshot: DEMO_POS_PRODUCT.sku,
      name_snapshot: DEMO_POS_PRODUCT.name,
      quantity: 2,
      unit_price_amount: 18_000,
      line_total_amount: 36_000,
    },
    {
      id: '019abc4e-9c20-7d3e-a1b4-6f8e2c0d5a95',
      line_no: 2,
      variant_id: '019abc4e-3b22-7a41-9d05-1e7c3f8b2a64',
      sku_snapshot: 'SNACK-PSGKJ',
      name_snapshot: 'Pisang Goreng Keju',
      quantity: 1,
      unit_price_amount: 12_000,
      line_total_amount: 12_000,
    },
  ],
  payments: [{ id: '019abc4e-9c20-7d3e-a1b4-6f8e2c0d5a96', method: 'cash', amount: 50_000 }],
};

/**
 * The close of the Pusat outlet's 25 November (Asia/Makassar): five sales (three in cash, 12,000 change given; two by
 * dynamic QRIS the platform matched), one void, 200,000 of float, and 3,000 short in the drawer.
 */
export const DEMO_TILL_CLOSE: TillClose = {
  id: '019abc4f-2d40-7b1e-9c35-8a6d0e4f1b27',
  outlet_id: PUSAT.id,
  kind: 'day',
  business_day: '2026-11-25',
  cashier_user_id: null,
  cashier_name: 'Sari',
  period_start: '2026-11-24T16:00:00.000Z',
  period_end: '2026-11-25T16:00:00.000Z',
  opening_float: 200_000,
  expected_cash: 538_000,
  counted_cash: 535_000,
  cash_difference: -3_000,
  order_count: 5,
  sales_amount: 411_000,
  change_amount: 12_000,
  qris_matched_amount: 73_000,
  qris_matched_count: 2,
  qris_unconfirmed_amount: 0,
  sales_by_method: [
    { method: 'cash', order_count: 3, amount: 350_000 },
    { method: 'qris', order_count: 2, amount: 73_000 },
  ],
  sales_by_category: [
    { category_id: DEMO_POS_CATEGORIES[0].id, category_name: DEMO_POS_CATEGORIES[0].name, quantity: 14, amount: 252_000 },
    { category_id: DEMO_POS_CATEGORIES[2].id, category_name: DEMO_POS_CATEGORIES[2].name, quantity: 13, amount: 159_000 },
  ],
  void_count: 1,
  void_amount: 18_000,
  note: 'Uang kembalian kurang Rp3.000',
  created_at: '2026-11-25T14:05:00.000Z',
};

/** A dynamic QRIS of 25,000 at the Pusat outlet, 15 minutes (the default), with its bill number in 62.01. */
const BILL_NUMBER = 'QRB0G7XK2M9D4TPA';
export const DEMO_QRIS_PAYMENT: QrisPayment = {
  id: '019abc4e-7a01-7f32-b6c8-3d5e9f1a2b40',
  outlet_id: PUSAT.id,
  amount: 25_000,
  bill_number: BILL_NUMBER,
  qris_payload: dynamicFromStatic(DEMO_STATIC_QRIS, 25_000, BILL_NUMBER),
  status: 'pending',
  sales_order_id: null,
  expires_at: '2026-11-25T02:56:00.000Z',
  paid_at: null,
  transaction_id: null,
  created_at: '2026-11-25T02:41:00.000Z',
};

/** A payment gateway's success callback for the Pusat outlet's NMID and terminal, as the internal endpoint answers it. */
export const DEMO_GATEWAY_CALLBACK = {
  referenceNo: 'PG20261125000123',
  merchantId: PUSAT.nmid,
  terminalId: 'TDEMO0001',
  amount: '25000.00',
  status: 'success',
  responseCode: '2005500',
  responseMessage: 'Successful',
  partnerReferenceNo: 'TRX-20261125-000123',
  approvalCode: '834120',
};

export const DEMO_TRANSACTION_STATUS = {
  status: 'processed' as const,
  reference_no: DEMO_GATEWAY_CALLBACK.referenceNo,
  partner_reference_no: DEMO_GATEWAY_CALLBACK.partnerReferenceNo,
  transaction_code: DEMO_GATEWAY_CALLBACK.partnerReferenceNo,
  transaction_status: 'success' as const,
  gross_amount: 25_000,
  merchant_id: DEMO.merchantId,
  merchant_name: 'Warung Kopi Demo',
  terminal_id: '019a0000-0000-7000-8000-0000000a0001',
  device_id: 'SBX1-DEMO-0001',
  nmid: PUSAT.nmid,
  status_changed: false,
  notification_attempted: true,
  notification: { status: 'sent', sent_count: 1, failed_count: 0, invalidated_count: 0 },
};

/** An operator's user id, as the internal decisions record it. */
export const OPERATOR_USER_ID = '019a0000-0000-7000-8000-00000000a0f1';

/** A new user's registration of a single-counter warung (the request id is the approved merchant's id). */
export const REGISTRATION_MERCHANT = {
  id: '019abc4e-2d40-7e19-8c3b-5a7f1e9d0b26',
  merchant_code: 'MRC-7K3QW9XJ2M',
  merchant_name: 'Bakso Pak Darto',
  business_type_name: 'Warung Makan',
  average_monthly_revenue: 27_000_000,
  employee_count: 2,
  business_scale_name: 'Usaha Mikro',
  merchant_status: 'pending' as const,
  contact_phone: '+6281311112222',
};

export const REGISTRATION_PROFILE: ProfileBody = {
  user_id: '019abc4e-1c30-7a52-9b4e-8d6f0a2c4e81',
  full_name: 'Darto Wibowo',
  display_name: 'Darto Wibowo',
  nik: '3171011505780002',
  gender: 'male',
  address_line: 'Jl. Cideng Timur No. 12, Jakarta Pusat',
  avatar_url: null,
  phone: '+6281311112222',
  phone_verified: true,
  email: null,
  email_verified: false,
  merchant_id: REGISTRATION_MERCHANT.id,
  merchant_name: REGISTRATION_MERCHANT.merchant_name,
  merchant_status: 'pending',
  merchant_contact_phone: REGISTRATION_MERCHANT.contact_phone,
  merchant_contact_email: 'baksodarto@warung.example',
  merchant_address_line: 'Jl. Cideng Timur No. 12',
  merchant_province_name: 'Daerah Khusus Ibukota Jakarta',
  merchant_city_name: 'Jakarta Pusat',
  merchant_district_name: 'Gambir',
  merchant_subdistrict_name: 'Cideng',
  merchant_postal_code: '10150',
  merchant_business_type_id: 1,
  merchant_business_type_name: 'Warung Makan',
  merchant_business_scale_name: 'Usaha Mikro',
  merchant_average_monthly_revenue: 27_000_000,
  merchant_employee_count: 2,
  merchant_reviewed_at: null,
  merchant_device_fee_service_accepted: true,
  merchant_terms_of_service_accepted: true,
  merchant_privacy_policy_accepted: true,
};
