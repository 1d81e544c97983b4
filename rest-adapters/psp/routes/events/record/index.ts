import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspChangeNmidStatusDocument, PspMarkPaymentEventAppliedDocument } from '@rest-adapters/generated/operations';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { recordEvent } from './intake';
import { assertComplete, toEventRejection, toEventResponse } from './mapper';
import { EventRejection, EventResponse, PaymentEvent, UNAPPLIED_EVENT_CODES } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

/**
 * Signature → per-type validation → resolve the NMID (outlet, merchant) → record once (the inbox
 * de-duplicates by bank and external_event_id); events arriving together are resolved and recorded together
 * (intake.ts). An NMID status change is applied in the outlet subgraph
 * after it is recorded, then marked applied; a replay of one recorded but not applied applies it again.
 * An event stored but not applied answers 422 with its code; a replay of it is a new attempt
 * (docs/decisions/0028-payment-event-and-settlement-intake.md).
 */
export default defineRoute({
  method: 'POST',
  url: '/psp/v1/events',
  summary: 'Receive a payment event from a bank',
  description:
    'Signed with the event key (X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature over method, path, timestamp and raw body). ' +
    'Every signed, well-formed event is stored. 200 means applied: status success, or duplicate_skipped for an external_event_id ' +
    'applied before. An event that cannot be applied is still stored for reconciliation and answers 422 with the error body ' +
    '(error, code) plus event_id, flow recorded_unapplied and merchant_id; code is one of unknown_nmid (also for another ' +
    'bank’s NMID), merchant_not_active, nmid_suspended, duplicate_transaction_code, original_not_found, original_not_eligible, ' +
    'refund_exceeds_original. Sending the same external_event_id again is a new attempt of an unapplied event (with the body ' +
    'sent and the NMID as it is then): 200 success once it applies (e.g. after the NMID is assigned), 422 again otherwise; ' +
    'concurrent replays apply it once. A 400 (malformed or incomplete body) stores nothing.',
  tags: ['psp: intake'],
  schema: { body: PaymentEvent, response: { 200: EventResponse, 422: EventRejection, ...errorResponses(400, 401, 413, 429) } },
  operationId: 'PspRecordPaymentEvent',
  errors: { 422: Object.keys(UNAPPLIED_EVENT_CODES) },
  examples: {
    body: {
      external_event_id: 'BDEMO-EVT-20261125-000123',
      event_type: 'qris.payment.success',
      nmid: DEMO.outlets[0].nmid,
      tid: 'TDEMO0001',
      gross_amount: 25000,
      transaction_code: 'TRX-20261125-000123',
      reference_number: 'REF20261125000123',
      rrn: '533012345678',
      transaction_at: '2026-11-25T09:41:27+07:00',
      payer_bank_code: 'BDEMO',
      payer_bank_name: 'Bank Demo',
      payer_name_masked: 'B*** S*******',
      mdr_fee_bank: 175,
      status: 'success',
    },
    responses: {
      200: {
        status: 'success',
        flow: 'transaction.created',
        event_id: '019abc4e-7f10-7a3c-9d2e-5b1f0c8e4a21',
        merchant_id: DEMO.merchantId,
        outlet_id: DEMO.outlets[0].id,
      },
      422: {
        error: UNAPPLIED_EVENT_CODES.unknown_nmid,
        code: 'unknown_nmid',
        event_id: '019abc4e-8a02-7c11-b3f4-0e6d2a9c5b77',
        flow: 'recorded_unapplied',
        merchant_id: null,
      },
    },
  },
  authenticate: bankSignature('event'),
  rateLimit: { max: 6000, windowSecs: 60 },
  // The validated body is the parsed request as sent (this schema strips nothing and adds no defaults).
  run: async ({ body }, ctx) => {
    assertComplete(body);
    let result = await recordEvent({ runtime: ctx, bank: actingBank(ctx.request), log: ctx.request.log, event: body });
    if (body.event_type === 'nmid.status_changed' && result.status !== 'rejected' && !result.applied) {
      // assertComplete requires nmid_new_status of this type.
      await ctx.execute(PspChangeNmidStatusDocument, {
        input: { nmid: body.nmid, status: body.nmid_new_status!, reason: body.nmid_reason ?? null },
      });
      const marked = (await ctx.execute(PspMarkPaymentEventAppliedDocument, { eventId: result.eventId })).markPaymentEventApplied;
      result = { ...marked, status: result.status };
    }
    if (result.errorCode) {
      ctx.status(422);
      return toEventRejection(result);
    }
    return toEventResponse(result);
  },
});
