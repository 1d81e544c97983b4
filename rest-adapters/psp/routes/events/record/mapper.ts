import { HttpError } from '@lib/rest/error-body';
import type { PaymentEventResultFieldsFragment } from '@rest-adapters/generated/operations';
import type { PaymentTarget } from '@rest-adapters/psp/routes/shared/payment-target';
import { type EventRejection, type EventResponse, type EventType, type PaymentEvent, UNAPPLIED_EVENT_CODES } from './schema';

const SUCCESS: EventType[] = ['transaction.success', 'qris.payment.success'];
const ATTEMPTS: EventType[] = ['transaction.failed', 'qris.payment.failed', 'transaction.cancelled'];
const CORRECTIONS: EventType[] = ['transaction.refunded', 'qris.payment.refunded', 'transaction.reversed'];

/** Fields each type needs beyond the always-required external_event_id, event_type, nmid, transaction_at. */
export function missingFields(event: PaymentEvent): string[] {
  const missing: string[] = [];
  if (SUCCESS.includes(event.event_type) || ATTEMPTS.includes(event.event_type)) {
    if (event.transaction_code === undefined) missing.push('transaction_code');
    if (event.gross_amount === undefined) missing.push('gross_amount');
  }
  if (SUCCESS.includes(event.event_type) && event.gross_amount === 0) missing.push('gross_amount (> 0)');
  if (CORRECTIONS.includes(event.event_type) && !event.transaction_code && !event.reference_number && !event.rrn) {
    missing.push('one of transaction_code, reference_number, rrn');
  }
  if (event.event_type === 'nmid.status_changed' && !event.nmid_new_status) missing.push('nmid_new_status');
  return missing;
}

export function assertComplete(event: PaymentEvent): void {
  const missing = missingFields(event);
  if (missing.length > 0) throw new HttpError(400, 'bad_request', `${event.event_type} requires ${missing.join(', ')}`);
}

export function toRecordInput(event: PaymentEvent, payload: Record<string, unknown>, target: PaymentTarget | null) {
  return {
    externalEventId: event.external_event_id,
    eventType: event.event_type,
    payload,
    nmid: event.nmid,
    transactionCode: event.transaction_code ?? null,
    referenceNumber: event.reference_number ?? null,
    rrn: event.rrn ?? null,
    transactionAt: event.transaction_at,
    grossAmount: event.gross_amount ?? null,
    payerBankCode: event.payer_bank_code ?? null,
    payerBankName: event.payer_bank_name ?? null,
    payerNameMasked: event.payer_name_masked ?? null,
    mdrFeeBank: event.mdr_fee_bank ?? null,
    switchingFee: event.switching_fee ?? null,
    platformFee: event.platform_fee ?? null,
    nmidNewStatus: event.nmid_new_status ?? null,
    target,
  };
}

export type PaymentEventResult = PaymentEventResultFieldsFragment;

/** An applied event (success, or duplicate_skipped of an applied one): the 200 of psp-api.md §2. */
export function toEventResponse(result: PaymentEventResult): EventResponse {
  return {
    status: result.status as EventResponse['status'],
    flow: result.flow,
    event_id: result.eventId,
    // An applied event always resolved its NMID.
    merchant_id: result.merchantId!,
    ...(result.outletId ? { outlet_id: result.outletId } : {}),
  };
}

/** A stored event that was not applied (errorCode set): the 422 body. */
export function toEventRejection(result: PaymentEventResult): EventRejection {
  const code = result.errorCode as keyof typeof UNAPPLIED_EVENT_CODES;
  return {
    error: `event stored but not applied: ${UNAPPLIED_EVENT_CODES[code] ?? code}`,
    code,
    event_id: result.eventId,
    flow: 'recorded_unapplied',
    merchant_id: result.merchantId,
  };
}
