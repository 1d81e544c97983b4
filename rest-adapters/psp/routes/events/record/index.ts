import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspChangeNmidStatusDocument, PspMarkPaymentEventAppliedDocument } from '@rest-adapters/generated/operations';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { recordEvent } from './intake';
import { assertComplete, toEventResponse } from './mapper';
import { EventResponse, PaymentEvent } from './schema';

/**
 * Signature → per-type validation → resolve the NMID (outlet, merchant) → record once (the inbox
 * de-duplicates by bank and external_event_id); events arriving together are resolved and recorded together
 * (intake.ts). An NMID status change is applied in the outlet subgraph
 * after it is recorded, then marked applied; a replay of one recorded but not applied applies it again.
 */
export default defineRoute({
  method: 'POST',
  url: '/psp/v1/events',
  summary: 'Receive a payment event from a bank',
  description:
    'Signed with the event key (X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature over method, path, timestamp and raw body). ' +
    'Every signed, well-formed event is stored; one that cannot be applied answers status rejected with error_code.',
  tags: ['psp: intake'],
  schema: { body: PaymentEvent, response: { 200: EventResponse, ...errorResponses(400, 401, 413, 429) } },
  operationId: 'PspRecordPaymentEvent',
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
    return toEventResponse(result);
  },
});
