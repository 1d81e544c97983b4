import { HttpError } from '@lib/rest/error-body';
import type { Execute } from '@lib/rest/route';
import {
  PspRecordPaymentEventsDocument,
  PspRecordPaymentEventsFromCopyDocument,
  type PspRecordPaymentEventsMutation,
} from '@rest-adapters/generated/operations';
import { type BankCall, bankBatch } from '@rest-adapters/psp/routes/shared/bank-batch';
import { type NmidReference, resolvePaymentTargets } from '@rest-adapters/psp/routes/shared/payment-target';
import { type PaymentEventResult, toRecordInput } from './mapper';
import type { PaymentEvent } from './schema';

export interface EventCall extends BankCall {
  event: PaymentEvent;
}

const referenceOf = ({ event }: EventCall): NmidReference => ({
  nmid: event.nmid,
  mid: event.mid,
  tid: event.tid,
});

/**
 * Stores and applies one verified event (once per bank and external_event_id), resolved by the transaction subgraph
 * from its copy of the owners' data: one operation (`recordPaymentEventsFromCopy`, docs/decisions/0028-payment-event-and-settlement-intake.md).
 * Events of every bank that arrive together go in one such operation. Those the copy cannot resolve (an NMID it does
 * not hold or that is not the bank's, a MID or TID it does not know) were not stored: they are resolved through the
 * owners (`outletsByNmid`) and recorded with `recordPaymentEvents`, so the copy never turns an answer into unknown_nmid.
 */
export const recordEvent = bankBatch<EventCall, PaymentEventResult>({
  async alone(call) {
    const [result] = await record([call], call.runtime.execute);
    if (result instanceof Error) throw result;
    return result;
  },
  together: record,
});

async function record(calls: EventCall[], execute: Execute): Promise<(PaymentEventResult | Error)[]> {
  const inputs = calls.map(({ event, bank }) => ({
    ...toRecordInput(event, event, null),
    bankCode: bank.bankCode,
    mid: event.mid ?? null,
    tid: event.tid ?? null,
  }));
  const outcomes: Outcome[] = (await execute(PspRecordPaymentEventsFromCopyDocument, { inputs })).recordPaymentEventsFromCopy;
  const unresolved = outcomes.flatMap((outcome, i) => (outcome.unresolved ? [i] : []));
  if (unresolved.length > 0) {
    const recorded = await recordResolvedByOwners(
      unresolved.map((i) => calls[i]),
      execute,
    );
    unresolved.forEach((i, k) => (outcomes[i] = recorded[k]));
  }
  return outcomes.map((outcome) => outcome.result ?? new HttpError(400, 'bad_request', outcome.inputError ?? 'invalid event'));
}

type Outcome = Pick<PspRecordPaymentEventsMutation['recordPaymentEvents'][number], 'result' | 'inputError'> & { unresolved?: boolean };

/** `calls` resolved through the owners and recorded with those targets, in order. */
async function recordResolvedByOwners(calls: EventCall[], execute: Execute): Promise<Outcome[]> {
  const targets = await resolvePaymentTargets(execute, calls, referenceOf);
  const inputs = calls.map((call, i) => ({ ...toRecordInput(call.event, call.event, targets[i]), bankCode: call.bank.bankCode }));
  return (await execute(PspRecordPaymentEventsDocument, { inputs })).recordPaymentEvents;
}
