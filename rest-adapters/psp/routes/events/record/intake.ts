import { HttpError } from '@lib/rest/error-body';
import { PspRecordPaymentEventDocument, PspRecordPaymentEventsDocument } from '@rest-adapters/generated/operations';
import { type BankCall, bankBatch } from '@rest-adapters/psp/routes/shared/bank-batch';
import { type NmidReference, resolvePaymentTarget, resolvePaymentTargets } from '@rest-adapters/psp/routes/shared/payment-target';
import { type PaymentEventResult, toRecordInput } from './mapper';
import type { PaymentEvent } from './schema';

export interface EventCall extends BankCall {
  event: PaymentEvent;
}

const referenceOf = ({ event, bank }: EventCall): NmidReference => ({
  bankCode: bank.bankCode,
  nmid: event.nmid,
  mid: event.mid,
  tid: event.tid,
});

/**
 * Stores and applies one verified event (once per bank and external_event_id). Events of every bank that arrive
 * together are resolved and recorded together: two operations per batch (`outletsByNmid`, `recordPaymentEvents`)
 * instead of two per event.
 */
export const recordEvent = bankBatch<EventCall, PaymentEventResult>({
  async alone(call) {
    const target = await resolvePaymentTarget(call.runtime, referenceOf(call));
    const input = toRecordInput(call.event, call.event, target);
    return (await call.runtime.execute(PspRecordPaymentEventDocument, { input })).recordPaymentEvent;
  },
  async together(calls, execute) {
    const targets = await resolvePaymentTargets(execute, calls.map(referenceOf));
    const inputs = calls.map((call, i) => ({ ...toRecordInput(call.event, call.event, targets[i]), bankCode: call.bank.bankCode }));
    const { recordPaymentEvents } = await execute(PspRecordPaymentEventsDocument, { inputs });
    return recordPaymentEvents.map((outcome) => outcome.result ?? new HttpError(400, 'bad_request', outcome.inputError ?? 'invalid event'));
  },
});
