import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { CoreRequestLoginOtpDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { OtpSentResponse, RequestOtpBody } from './schema';
import { DEMO_DEVICE, DEMO_OTP_REQUEST_ID, DEMO_PHONE } from '@rest-adapters/core/examples';

/**
 * core-api.md §4: a six-digit code by the messaging provider. 429 `otp_cooldown` within 60 s of the last code,
 * 429 `otp_rate_limited` over the hourly caps (per phone, per client address), both with retry_after_secs;
 * 503 `otp_delivery_failed` when the provider does not take it.
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/request-otp',
  summary: 'Send a login code',
  description: [
    'A six-digit code by the messaging provider, valid 300 s and usable once; it replaces every earlier code of the phone. Send `request_id` with the code to `POST /auth/verify-otp`. No account is needed (the first verification creates it).',
    '',
    '- **429 `otp_cooldown`**: a code was sent to the phone less than 60 s ago; `retry_after_secs` (and `Retry-After`) is the rest of the wait.',
    '- **429 `otp_rate_limited`**: the hourly cap is reached — 5 codes per phone, or 20 per client address over all phones and email codes (defaults; each in a rolling hour); `retry_after_secs` is when the oldest code of the hour leaves it.',
    '- **503 `otp_delivery_failed`** (`retry_after_secs` 30): the provider did not take the message; the code is discarded and counts for neither the cooldown nor the caps.',
    '- 400 `bad_request`: a phone that is not Indonesian, an unknown `method`, malformed device fields. 429 `rate_limit_exceeded`: more than 10 requests a minute from the client address.',
  ].join('\n'),
  tags: ['core: auth'],
  schema: { body: RequestOtpBody, response: { 200: OtpSentResponse, ...errorResponses(400, 429) } },
  operationId: 'CoreRequestLoginOtp',
  examples: {
    body: { phone: DEMO_PHONE.typed, method: 'messaging', ...DEMO_DEVICE },
    responses: {
      200: {
        status: 'otp_sent',
        request_id: DEMO_OTP_REQUEST_ID,
        phone: DEMO_PHONE.e164,
        method: 'messaging',
        expires_in_secs: 300,
        retry_after_secs: 60,
      },
    },
  },
  rateLimit: { max: 10, windowSecs: 60 },
  run: async ({ body }, { execute, request }) => {
    const { requestLoginOtp: r } = await execute(CoreRequestLoginOtpDocument, {
      input: { phone: body.phone, method: body.method ?? null, clientAddress: request.ip, ...deviceVariables(body) },
    });
    return {
      status: 'otp_sent' as const,
      request_id: r.requestId,
      phone: r.phone,
      method: r.method,
      expires_in_secs: r.expiresInSecs,
      retry_after_secs: r.retryAfterSecs,
    };
  },
});
