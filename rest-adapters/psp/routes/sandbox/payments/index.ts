import { DEMO } from '@lib/domain/demo/demo-ids';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { SandboxPaymentRequest, SandboxPaymentResult } from '@rest-adapters/core/routes/internal/sandbox-payment-events/schema';
import { SANDBOX_PAYMENT_EXAMPLES } from '@rest-adapters/core/routes/internal/sandbox-payment-events/examples';
import { simulateSandboxPayment } from '@rest-adapters/core/routes/internal/sandbox-payment-events/simulate';
import { EventRejection, UNAPPLIED_EVENT_CODES } from '@rest-adapters/psp/routes/events/record/schema';
import { SANDBOX_ERRORS, SANDBOX_ROUTE_NOTES, sandboxCaller, sandboxSignature } from '../sandbox-bank';

/** The internal simulation (simulate.ts), asked by the sandbox bank itself for one of its own NMIDs. */
export default defineRoute({
  method: 'POST',
  url: '/psp/v1/sandbox/payments',
  summary: 'Simulate a payment to one of your sandbox NMIDs',
  description: [
    'Your sandbox sends itself the `qris.payment.success` you would send to `POST /psp/v1/events`, and it goes through that same intake as you: the transaction is recorded, a pending dynamic QRIS whose `bill_number` is `reference_number` is marked paid, and the merchant’s app sees the payment live and gets the push. The answer carries the event as sent.',
    '',
    '- **404 `not_found`**: the NMID is not one of your sandbox outlets (a live NMID or another bank’s is unknown here). Nothing is written.',
    '- **Replays**: the same `event_id` again answers `duplicate_skipped` with the first event id; no second transaction.',
    '- **422** (the intake’s codes, e.g. `merchant_not_active`): stored, not applied, as for your live events.',
    ...SANDBOX_ROUTE_NOTES,
  ].join('\n'),
  tags: ['psp: sandbox'],
  schema: {
    body: SandboxPaymentRequest,
    response: { 200: SandboxPaymentResult, 422: EventRejection, ...errorResponses(400, 401, 403, 404, 413, 429) },
  },
  operationId: 'PspSandboxPayment',
  errors: { 403: ['live_bank'], 422: Object.keys(UNAPPLIED_EVENT_CODES) },
  examples: {
    ...SANDBOX_PAYMENT_EXAMPLES,
    errors: { ...SANDBOX_ERRORS, not_found: `no outlet has NMID ${DEMO.outlets[0].nmid}` },
  },
  authenticate: sandboxSignature,
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ body }, ctx) => {
    const caller = sandboxCaller(ctx.request);
    const outcome = await simulateSandboxPayment(ctx, body, { caller });
    if (outcome.status === 422) ctx.status(422);
    return outcome.body;
  },
});
