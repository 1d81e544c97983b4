import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

/** Simulated event ids: short enough that `TRX-<id>` fits the bank's transaction_code (64). */
export const SANDBOX_EVENT_ID_PATTERN = '^[A-Za-z0-9._:-]{1,56}$';
/** The largest simulated payment: QRIS's cap (lib/domain/qris/qris-payload.ts). */
export const SANDBOX_MAX_AMOUNT = 10_000_000;

export const SandboxPaymentRequest = Type.Object(
  {
    nmid: Type.String({
      pattern: '^ID[0-9]{10,15}$',
      description: 'The NMID of a sandbox outlet (ID99 followed by 13 digits). A live NMID is refused (403 `live_nmid`).',
    }),
    amount: Type.Integer({ minimum: 1, maximum: SANDBOX_MAX_AMOUNT, description: 'Whole rupiah paid (gross_amount of the event).' }),
    reference_number: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'The bank’s reference_number: the bill number of a pending dynamic QRIS of that outlet (`bill_number` of POST /merchant/poslite/payments/qris) marks it paid.',
      }),
    ),
    event_id: Type.Optional(
      Type.String({
        pattern: SANDBOX_EVENT_ID_PATTERN,
        description:
          'The bank’s external_event_id (default: a new `SBX-EVT-<uuid>`): sending the same id again is a replay, answered `duplicate_skipped`, never a second payment.',
      }),
    ),
    tid: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'A terminal id of the outlet (the event’s tid).' })),
  },
  { additionalProperties: false },
);
export type SandboxPaymentRequest = Static<typeof SandboxPaymentRequest>;

/** The event a bank would send, as the simulation sent it to the intake (psp-api.md §2). */
const SimulatedEvent = Type.Object(
  {
    external_event_id: Type.String(),
    event_type: Type.Literal('qris.payment.success'),
    nmid: Type.String(),
    tid: Type.Optional(Type.String()),
    gross_amount: Type.Integer(),
    transaction_code: Type.String(),
    reference_number: Type.Optional(Type.String()),
    transaction_at: Type.String({ format: 'date-time' }),
    payer_bank_code: Type.String(),
    payer_bank_name: Type.String(),
    payer_name_masked: Type.String(),
    status: Type.Literal('success'),
  },
  { additionalProperties: false, description: 'The bank event as sent to the intake this time (a replay answers the first one’s result).' },
);

export const SandboxPaymentResult = Type.Object(
  {
    status: Type.Union([Type.Literal('success'), Type.Literal('duplicate_skipped')], {
      description: 'success: applied now; duplicate_skipped: this event_id was applied before (nothing new was written).',
    }),
    flow: Type.String({ description: 'The intake’s path: transaction.created.' }),
    event_id: Type.String({ format: 'uuid', description: 'Our event-log id (the first one for a replay).' }),
    external_event_id: Type.String({ description: 'The event id the sandbox bank sent.' }),
    bank_code: Type.String({ description: 'The sandbox bank the event was recorded as.' }),
    merchant_id: Type.String({ format: 'uuid' }),
    outlet_id: Nullable(Type.String({ format: 'uuid', description: 'Set for merchants with several outlets (as the bank API).' })),
    event: SimulatedEvent,
  },
  { additionalProperties: false },
);
export type SandboxPaymentResult = Static<typeof SandboxPaymentResult>;
