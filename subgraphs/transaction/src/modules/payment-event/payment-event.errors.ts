import { NotFoundError } from '@lib/errors/app-error';

/**
 * Why a stored event was not applied (`errorCode` of a `rejected` result). These are answers, not GraphQL
 * errors: the event is kept for reconciliation, the bank gets HTTP 422 with the code, and a replay of it is a
 * new attempt (docs/decisions/0028-payment-event-and-settlement-intake.md).
 */
export const EVENT_ERROR_CODES = {
  unsupported_event_type: 'not one of the nine event types of psp-api.md §6',
  unknown_nmid: "the NMID is unknown, or another bank's",
  merchant_not_active: 'the merchant is not active (draft, inactive, suspended or deleted): recorded, no transaction',
  nmid_suspended: 'a successful payment on an NMID its bank suspended',
  duplicate_transaction_code: "the bank's transaction_code already belongs to a transaction of another event",
  original_not_found: 'no transaction of this bank and merchant matches the refund or reversal',
  original_not_eligible:
    'the original is not a successful transaction (failed, cancelled, pending, reversed, or a reversal of a refunded one)',
  refund_exceeds_original: 'the refund is larger than what is left to refund',
} as const;
export type EventErrorCode = keyof typeof EVENT_ERROR_CODES;

export class PaymentEventNotFoundError extends NotFoundError {
  constructor() {
    super('payment event');
  }
}
