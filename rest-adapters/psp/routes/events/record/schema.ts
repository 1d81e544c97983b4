import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

export const EVENT_TYPES = [
  'transaction.success',
  'transaction.failed',
  'transaction.cancelled',
  'transaction.refunded',
  'transaction.reversed',
  'qris.payment.success',
  'qris.payment.failed',
  'qris.payment.refunded',
  'nmid.status_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const Amount = Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: 'Smallest currency unit (rupiah).' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

/** The flat event of psp-api.md §2. Which fields each type requires: docs/decisions/0028-payment-event-intake.md (checked in mapper.ts). */
export const PaymentEvent = Type.Object({
  external_event_id: Text(128),
  event_type: Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))),
  nmid: Type.String({ pattern: '^ID[0-9]{10,15}$' }),
  mid: Type.Optional(Text(32)),
  tid: Type.Optional(Text(32)),
  gross_amount: Type.Optional(Amount),
  transaction_code: Type.Optional(Text(64)),
  reference_number: Type.Optional(Text(64)),
  rrn: Type.Optional(Text(32)),
  transaction_at: Type.String({ format: 'date-time' }),
  payer_bank_code: Type.Optional(Text(16)),
  payer_bank_name: Type.Optional(Text(128)),
  payer_name_masked: Type.Optional(Text(128)),
  mdr_fee_bank: Type.Optional(Amount),
  switching_fee: Type.Optional(Amount),
  platform_fee: Type.Optional(Amount),
  status: Type.Optional(Text(32)),
  nmid_new_status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
  nmid_old_status: Type.Optional(Text(32)),
  nmid_reason: Type.Optional(Text(256)),
});
export type PaymentEvent = Static<typeof PaymentEvent>;

export const EventResponse = Type.Object({
  status: Type.Union([Type.Literal('success'), Type.Literal('duplicate_skipped'), Type.Literal('rejected')], {
    description: 'rejected: stored for reconciliation but not applied; error_code says why.',
  }),
  flow: Type.String({
    description: 'The path taken: transaction.created, transaction.refunded, nmid.status_changed, recorded_unapplied, …',
  }),
  event_id: Type.String({ format: 'uuid', description: 'Our event-log id (the first one for a duplicate).' }),
  merchant_id: Nullable(Type.String({ format: 'uuid' })),
  outlet_id: Type.Optional(Type.String({ format: 'uuid', description: 'Present for merchants with several outlets.' })),
  error_code: Type.Optional(Type.String()),
});
export type EventResponse = Static<typeof EventResponse>;
