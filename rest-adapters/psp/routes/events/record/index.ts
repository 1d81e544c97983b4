import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { actingBank, bankSignature } from '@rest-adapters/psp/auth/bank-signature';
import { record, recordEvent } from './intake';
import { type PaymentEventResult, assertComplete, toEventResponse } from './mapper';
import { EventResponse, PaymentEvent } from './schema';

const changeNmidStatus = loadOperation(__dirname, 'change-nmid-status.graphql');
const markApplied = loadOperation(__dirname, 'mark-applied.graphql');

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
  operation: record,
  authenticate: bankSignature('event'),
  rateLimit: { max: 6000, windowSecs: 60 },
  // The validated body is the parsed request as sent (this schema strips nothing and adds no defaults).
  handle: async ({ body }, runtime, req) => {
    assertComplete(body);
    let result = await recordEvent({ runtime, bank: actingBank(req), log: req.log, event: body });
    if (body.event_type === 'nmid.status_changed' && result.status !== 'rejected' && !result.applied) {
      await runtime.run(changeNmidStatus, { input: { nmid: body.nmid, status: body.nmid_new_status, reason: body.nmid_reason ?? null } });
      const marked = (await runtime.run<{ markPaymentEventApplied: PaymentEventResult }>(markApplied, { eventId: result.eventId }))
        .markPaymentEventApplied;
      result = { ...marked, status: result.status };
    }
    return toEventResponse(result);
  },
});
