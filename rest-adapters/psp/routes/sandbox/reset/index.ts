import { DEMO } from '@lib/domain/demo/demo-ids';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspSandboxResetDocument } from '@rest-adapters/generated/operations';
import { SANDBOX_ERRORS, SANDBOX_ROUTE_NOTES, sandboxCaller, sandboxSignature } from '../sandbox-bank';
import { SandboxReset } from './schema';

export default defineRoute({
  method: 'POST',
  url: '/psp/v1/sandbox/reset',
  summary: 'Reset your sandbox',
  description: [
    'Deletes what your sandbox did — your payment events and their transactions, settlements, the payment feed, your sandbox merchants’ dynamic QRIS payments and daily figures, the webhook deliveries to your endpoint — sets your sandbox clock back to the real time, and restores your sandbox merchants to the state they were issued in (active, no suspension). Your keys, merchants, outlets, NMIDs, terminals, owners and webhook endpoint are kept. Only rows of your sandbox are touched; calling it again deletes nothing more (all counts 0). Send no body.',
    ...SANDBOX_ROUTE_NOTES,
  ].join('\n'),
  tags: ['psp: sandbox'],
  schema: { response: { 200: SandboxReset, ...errorResponses(401, 403, 429) } },
  operationId: 'PspSandboxReset',
  errors: { 403: ['live_bank'] },
  examples: {
    responses: {
      200: {
        merchant_ids: [DEMO.sandbox.merchantId],
        merchants_restored: 0,
        deleted: { transactions: 12, payment_events: 13, settlements: 1, qris_payments: 2, webhook_deliveries: 0 },
      },
    },
    errors: SANDBOX_ERRORS,
  },
  authenticate: sandboxSignature,
  rateLimit: { max: 30, windowSecs: 60 },
  run: async (_input, ctx) => {
    sandboxCaller(ctx.request);
    const { resetSandboxTransactions: t, resetSandbox: m } = await ctx.execute(PspSandboxResetDocument, {});
    return {
      merchant_ids: m.merchantIds,
      merchants_restored: m.merchantsRestored,
      deleted: {
        transactions: t.transactions,
        payment_events: t.paymentEvents,
        settlements: t.settlements,
        qris_payments: t.qrisPayments,
        webhook_deliveries: m.webhookDeliveries,
      },
    };
  },
});
