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

/** The flat event of psp-api.md §2. Which fields each type requires: docs/decisions/0028-payment-event-and-settlement-intake.md (checked in mapper.ts). */
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

/** psp-api.md §2 "Event response 200": only ever for an event that was applied (now, or by an earlier delivery). */
export const EventResponse = Type.Object({
  status: Type.Union([Type.Literal('success'), Type.Literal('duplicate_skipped')], {
    description: 'success: applied now; duplicate_skipped: this external_event_id was applied before (the first answer).',
  }),
  flow: Type.String({
    description:
      'The path taken: transaction.created, transaction.failed_recorded, transaction.cancelled_recorded, transaction.refunded, transaction.reversed, nmid.status_changed.',
  }),
  event_id: Type.String({ format: 'uuid', description: 'Our event-log id (the first one for a duplicate).' }),
  merchant_id: Type.String({ format: 'uuid' }),
  outlet_id: Type.Optional(Type.String({ format: 'uuid', description: 'Present for merchants with several outlets.' })),
});
export type EventResponse = Static<typeof EventResponse>;

/**
 * Why a stored event was not applied: the `code` of a 422 (docs/decisions/0028-payment-event-and-settlement-intake.md). An NMID
 * of another bank is unknown_nmid too: a bank cannot learn which NMIDs other banks hold (0026).
 */
export const UNAPPLIED_EVENT_CODES = {
  unknown_nmid: 'the NMID is not one of this bank’s (unknown, or not yet assigned)',
  merchant_not_active: 'the merchant of the NMID is not active: the payment is recorded, no transaction is created',
  nmid_suspended: 'a successful payment on an NMID the bank suspended',
  duplicate_transaction_code: 'transaction_code already belongs to a transaction of another event',
  original_not_found: 'no transaction of this bank and merchant matches the refund or reversal',
  original_not_eligible: 'the original is not a successful transaction',
  refund_exceeds_original: 'the refund is larger than what is left to refund',
  unsupported_event_type: 'not one of the nine event types',
} as const;

/** 422: the error body, plus the stored record (the event is kept for reconciliation). */
export const EventRejection = Type.Object(
  {
    error: Type.String({ description: 'Human-readable reason.' }),
    code: Type.Union(
      Object.keys(UNAPPLIED_EVENT_CODES).map((code) => Type.Literal(code)),
      { description: 'Machine-readable reason (stable).' },
    ),
    event_id: Type.String({ format: 'uuid', description: 'Our event-log id of the stored, unapplied event.' }),
    flow: Type.Literal('recorded_unapplied'),
    merchant_id: Nullable(Type.String({ format: 'uuid', description: 'When the NMID resolved (e.g. merchant_not_active).' })),
  },
  { title: 'PspEventRejection' },
);
export type EventRejection = Static<typeof EventRejection>;
