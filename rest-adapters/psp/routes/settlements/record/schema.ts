import { type Static, Type } from '@sinclair/typebox';

const Amount = Type.Integer({ minimum: 0, maximum: 1_000_000_000_000_000, description: 'Smallest currency unit (rupiah).' });

/** psp-api.md §2 settlement request. */
export const SettlementRequest = Type.Object({
  external_event_id: Type.String({ minLength: 1, maxLength: 128 }),
  settlement_id: Type.String({ minLength: 1, maxLength: 128 }),
  nmid: Type.String({ pattern: '^ID[0-9]{10,15}$' }),
  bank_code: Type.String({ minLength: 2, maxLength: 12, description: 'Must be the calling bank’s code.' }),
  gross_amount: Amount,
  mdr_total: Amount,
  net_amount: Amount,
  settlement_date: Type.String({ format: 'date', description: 'Business date (Asia/Jakarta) whose transactions are settled.' }),
  completed_at: Type.String({ format: 'date-time' }),
});
export type SettlementRequest = Static<typeof SettlementRequest>;

/** Our answer (the spec leaves it open): what matched, and how far the bank's figure is from ours. Only for an applied settlement. */
export const SettlementResponse = Type.Object({
  status: Type.Union([Type.Literal('success'), Type.Literal('duplicate_skipped')]),
  settlement_ref: Type.String({ format: 'uuid', description: 'Our id of this settlement (the first one for a duplicate).' }),
  settlement_id: Type.String(),
  matched_count: Type.Integer({ description: 'Successful transactions of the NMID on that business date now marked settled.' }),
  matched_amount: Type.Integer({ description: 'Their gross total.' }),
  gross_amount: Type.Integer(),
  discrepancy_amount: Type.Integer({ description: 'gross_amount − matched_amount; 0 when reconciled.' }),
  reconciled: Type.Boolean(),
});
export type SettlementResponse = Static<typeof SettlementResponse>;

/** 422: the error body, plus the stored settlement (kept for reconciliation). docs/decisions/0028-payment-event-and-settlement-intake.md. */
export const SettlementRejection = Type.Object(
  {
    error: Type.String({ description: 'Human-readable reason.' }),
    code: Type.Literal('unknown_nmid', {
      description: 'The NMID is not one of this bank’s (unknown, not yet assigned, or another bank’s).',
    }),
    settlement_ref: Type.String({ format: 'uuid', description: 'Our id of the stored, unapplied settlement.' }),
    settlement_id: Type.String(),
  },
  { title: 'PspSettlementRejection' },
);
export type SettlementRejection = Static<typeof SettlementRejection>;
