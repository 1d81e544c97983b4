import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspSandboxClockAdvanceDocument } from '@rest-adapters/generated/operations';
import { SANDBOX_ERRORS, SANDBOX_ROUTE_NOTES, sandboxCaller, sandboxSignature } from '../sandbox-bank';
import { SandboxClockAdvance, SandboxClockAdvanceRequest } from '../clock/schema';

export default defineRoute({
  method: 'POST',
  url: '/psp/v1/sandbox/clock/advance',
  summary: 'Advance your sandbox’s clock',
  description: [
    'Moves your sandbox’s time forward by `seconds` (1 s to 30 days per call), so that what waits on time happens now instead of later. What follows the clock:',
    '- **Webhook retries**: every pending delivery to your webhook endpoint has its next attempt moved `seconds` closer (never before now); one that becomes due is attempted at once, on the documented schedule after it.',
    '- **Dynamic QRIS expiry**: your sandbox merchants’ pending dynamic QRIS payments expire `seconds` sooner; one past `expires_at` reads `expired` (GET …/payments/qris/{id}, a stream opened or reconnected after the advance) and a later payment event for it is kept as unmatched `expired`.',
    '',
    'What does not follow it: the time of new data (events, transactions and settlements are dated by the real clock), and the daily jobs (daily summary, automatic suspension), which run at their real local times for every merchant. Reset (`POST /psp/v1/sandbox/reset`) sets the clock back to the real time.',
    '- **400 `bad_request`**: `seconds` missing, not a whole number or out of bounds. Nothing changes.',
    ...SANDBOX_ROUTE_NOTES,
  ].join('\n'),
  tags: ['psp: sandbox'],
  schema: { body: SandboxClockAdvanceRequest, response: { 200: SandboxClockAdvance, ...errorResponses(400, 401, 403, 413, 429) } },
  operationId: 'PspSandboxClockAdvance',
  errors: { 403: ['live_bank'] },
  examples: {
    body: { seconds: 3600 },
    responses: { 200: { now: '2026-11-25T03:41:27Z', offset_secs: 3600, webhook_deliveries_moved: 1, qris_payments_moved: 2 } },
    errors: SANDBOX_ERRORS,
  },
  authenticate: sandboxSignature,
  rateLimit: { max: 120, windowSecs: 60 },
  run: async ({ body }, ctx) => {
    sandboxCaller(ctx.request);
    const { advanceSandboxClock: clock, advanceSandboxQrisExpiries: qris } = await ctx.execute(PspSandboxClockAdvanceDocument, {
      seconds: body.seconds,
    });
    return {
      now: clock.now,
      offset_secs: clock.offsetSecs,
      webhook_deliveries_moved: clock.webhookDeliveriesMoved,
      qris_payments_moved: qris,
    };
  },
});
