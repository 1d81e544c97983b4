import { DEMO } from '@lib/domain/demo/demo-ids';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { EventRejection, UNAPPLIED_EVENT_CODES } from '@rest-adapters/psp/routes/events/record/schema';
import { SANDBOX_PAYMENT_EXAMPLES } from './examples';
import { SandboxPaymentRequest, SandboxPaymentResult } from './schema';
import { simulateSandboxPayment } from './simulate';

/**
 * Two steps: resolve the NMID as an internal caller (its merchant must be a sandbox merchant), then the bank intake's
 * own two operations as that merchant's sandbox bank (simulate.ts, docs/decisions/0015-demo-data-and-sandbox.md).
 */
export default defineRoute({
  method: 'POST',
  url: '/internal/sandbox/payment-events',
  summary: 'Simulate a bank’s payment to a sandbox NMID',
  description: [
    'Server to server, with `X-Internal-API-Key`. For app and POS teams: a payment arrives at a sandbox outlet as if its sandbox bank had sent `qris.payment.success` to `POST /psp/v1/events` — it goes through that same intake, acting as the bank, so the transaction is recorded, a pending dynamic QRIS whose `bill_number` is `reference_number` is marked paid, and the merchant’s live stream (`GET /merchant/payments/events`), the payment’s stream and the push notification follow exactly as for a real bank. `npm run ops -- sandbox:simulate-payment` does the same.',
    '',
    '- **403 `live_nmid`**: the NMID is a live merchant’s. The sandbox never touches live data: nothing is written.',
    '- **404 `not_found`**: no outlet has this NMID. Nothing is written.',
    '- **Replays**: the same `event_id` again answers `duplicate_skipped` with the first event id; no second transaction.',
    '- **422** (the bank intake’s codes, e.g. `merchant_not_active` when an operator suspended the sandbox merchant): stored for reconciliation, not applied, as for a bank.',
    '',
    'Sandbox credentials, merchants and NMIDs: the Sandbox section of the API guide.',
  ].join('\n'),
  tags: ['core: internal'],
  schema: {
    body: SandboxPaymentRequest,
    response: { 200: SandboxPaymentResult, 422: EventRejection, ...errorResponses(400, 401, 403, 404) },
  },
  operationId: 'SimulateSandboxPayment',
  errors: { 422: Object.keys(UNAPPLIED_EVENT_CODES) },
  examples: {
    ...SANDBOX_PAYMENT_EXAMPLES,
    errors: {
      live_nmid: `NMID ${DEMO.outlets[0].nmid} is a live merchant's: the sandbox simulates payments to sandbox NMIDs only (ID99 followed by 13 digits)`,
      not_found: 'no outlet has NMID ID990000000009999',
    },
  },
  authenticate: internalAuth,
  rateLimit: { max: 600, windowSecs: 60 },
  run: async ({ body }, ctx) => {
    const outcome = await simulateSandboxPayment(ctx, body);
    if (outcome.status === 422) {
      ctx.status(422);
      return outcome.body;
    }
    return outcome.body;
  },
});
