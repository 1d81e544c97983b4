import { DEMO } from '@lib/domain/demo/demo-ids';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { EventRejection, UNAPPLIED_EVENT_CODES } from '@rest-adapters/psp/routes/events/record/schema';
import { SandboxPaymentRequest, SandboxPaymentResult } from './schema';
import { simulateSandboxPayment } from './simulate';

const SANDBOX_OUTLET = DEMO.sandbox.outlets[0];

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
    body: { nmid: SANDBOX_OUTLET.nmid, amount: 25000, reference_number: 'QRB0G7XK2M9D4TPA', event_id: 'SBX-EVT-20261125-000123' },
    responses: {
      200: {
        status: 'success',
        flow: 'transaction.created',
        event_id: '019abc4e-7f10-7a3c-9d2e-5b1f0c8e4a21',
        external_event_id: 'SBX-EVT-20261125-000123',
        bank_code: DEMO.sandbox.bank.code,
        merchant_id: DEMO.sandbox.merchantId,
        outlet_id: SANDBOX_OUTLET.id,
        event: {
          external_event_id: 'SBX-EVT-20261125-000123',
          event_type: 'qris.payment.success',
          nmid: SANDBOX_OUTLET.nmid,
          gross_amount: 25000,
          transaction_code: 'TRX-SBX-EVT-20261125-000123',
          reference_number: 'QRB0G7XK2M9D4TPA',
          transaction_at: '2026-11-25T09:41:27+07:00',
          payer_bank_code: 'SANDBOX',
          payer_bank_name: 'Sandbox',
          payer_name_masked: 'S****** P******',
          status: 'success',
        },
      },
      422: {
        error: `event stored but not applied: ${UNAPPLIED_EVENT_CODES.merchant_not_active}`,
        code: 'merchant_not_active',
        event_id: '019abc4e-8a02-7c11-b3f4-0e6d2a9c5b77',
        flow: 'recorded_unapplied',
        merchant_id: DEMO.sandbox.merchantId,
      },
    },
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
