import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { internalAuth } from '@rest-adapters/core/auth/user-auth';
import { GatewayPayload, parseGatewayCallback } from './gateway-status';
import { TransactionStatusResult, processCallback } from './process';
import { DEMO_GATEWAY_CALLBACK, DEMO_TRANSACTION_STATUS } from '@rest-adapters/core/examples';

/** core-api.md §4: one payment-gateway status callback (server to server). */
export default defineRoute({
  method: 'POST',
  url: '/internal/transactions/transaction-status',
  summary: 'Receive a payment gateway’s transaction status',
  description: [
    'Server to server, with `X-Internal-API-Key` (missing or wrong → 401 `unauthorized`). Not persisted and not de-duplicated: every success callback notifies the merchant owners again.',
    '',
    '- **400 `bad_request`** (the message names the reason): a field missing, of the wrong type or too long; `referenceNo` or `merchantId` blank; neither `status` nor `responseCode`; an `amount` that is not whole rupiah — digits with an optional all-zero fraction (`"15000"`, `"15000.00"`), 1 to 10^15; fractions of a rupiah, negatives, zero, exponents and separators are refused; no `terminalId` while `merchantId` is not a merchant UUID.',
    '- **`merchantId`** is, in this order: a live outlet’s NMID, a live outlet’s MID, the merchant’s own NMID — or a UUID naming a merchant. None → 404 `merchant_not_found`.',
    '- **`terminalId`**, when given, is one of that merchant’s live terminals by TID, serial number or id; none → 404 `terminal_not_found`.',
    '- **Status:** a known status word decides, trimmed and case-insensitive (`paid`, `success`, `successful` → success; `pending`, `waiting` → pending; `failed`, `fail` → failed; `cancelled`, `canceled` → cancelled; `refund`, `refunded` → refunded; `reversed`, `reverse` → reversed). An empty or unknown word falls to `responseCode`: prefix 200 success, 202 pending, 400/401/402/403/404/409/500 failed, anything else pending — an unknown never reads as success.',
    '- **Notification** on `success` only: a push and a messaging alert to each owner of the merchant, as the owner’s account settings allow (transaction notifications off: neither; push notifications off: no push).',
  ].join('\n'),
  tags: ['core: internal'],
  schema: { body: GatewayPayload, response: { 200: TransactionStatusResult, ...errorResponses(400, 401, 404) } },
  operationId: 'ResolvePaymentTarget',
  examples: { body: DEMO_GATEWAY_CALLBACK, responses: { 200: DEMO_TRANSACTION_STATUS } },
  authenticate: internalAuth,
  run: async ({ body }, ctx) => {
    const parsed = parseGatewayCallback(body);
    if (!parsed.ok) throw new HttpError(400, 'bad_request', parsed.message);
    return processCallback(ctx, parsed.value);
  },
});
