/** Field names that must never leave the partner API (partner-api.md §2 "Fields never returned"). */
export const NEVER = [
  'customer_id',
  'qris_payload',
  'qris_static_payload',
  'device_id',
  'payer_reference',
  'payer_name_masked',
  'payer_name',
  'payer_bank_code',
  'rrn',
  'nmid',
  'mid',
  'tid',
  'terminal_id',
  'bank_code',
  'mdr_fee_bank',
  'switching_fee',
  'platform_fee',
  'service_fee',
  'fee_share',
  'commission',
  'partner_commission',
  'refunded_amount',
  'nik',
  'national_id',
  'account_number',
  'account_name',
  // Settlement accounts (docs/decisions/0238-settlement-accounts.md): banks and the app see them, partners never.
  'settlement_account',
  'settlement_accounts',
  'holder_name',
  'account_number_masked',
  'settlement_ref',
];
/** Contract A omits every fee and MDR breakdown. */
export const NEVER_IN_A = ['mdr_rate', 'mdr_fee_amount', 'net_amount_after_mdr', 'currency', 'settlement_status'];
/** partner-api.md §1 names these as the outlet and device identifiers: the outlet endpoints return them, nothing else does. */
export const OUTLET_IDENTIFIERS = ['nmid', 'mid', 'tid', 'serial_number'];

/** Every key of every object anywhere in a JSON value. */
export function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      into.add(key);
      keysOf(v, into);
    }
  }
  return into;
}
