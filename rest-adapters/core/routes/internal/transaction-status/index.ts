import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { GatewayPayload, parseGatewayCallback } from './gateway-status';
import { TransactionStatusResult, processCallback } from './process';

/** core-api.md §4: one payment-gateway status callback (server to server). */
export default defineRoute({
  method: 'POST',
  url: '/internal/transactions/transaction-status',
  summary: 'Receive a payment gateway’s transaction status',
  description: 'Not persisted, not de-duplicated: every success callback notifies the merchant owners again.',
  tags: ['core: internal'],
  schema: { body: GatewayPayload, response: { 200: TransactionStatusResult, ...errorResponses(400, 401, 404) } },
  operationId: 'ResolvePaymentTarget',
  authenticate: internalAuth,
  run: async ({ body }, ctx) => {
    const parsed = parseGatewayCallback(body);
    if (!parsed.ok) throw new HttpError(400, 'bad_request', parsed.message);
    return processCallback(ctx, parsed.value);
  },
});
