import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { deviceVariables } from '../device-schema';
import { OtpSentResponse, RequestOtpBody } from './schema';

const operation = loadOperation(__dirname);

interface Data {
  requestLoginOtp: { requestId: string; phone: string; method: string; expiresInSecs: number; retryAfterSecs: number };
}

/**
 * core-api.md §4: a six-digit code by the messaging provider. 429 `otp_cooldown` within 60 s of the last code,
 * 429 `otp_rate_limited` over the hourly caps (per phone, per client address), both with retry_after_secs;
 * 503 `otp_delivery_failed` when the provider does not take it.
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/request-otp',
  summary: 'Send a login code',
  tags: ['core: auth'],
  schema: { body: RequestOtpBody, response: { 200: OtpSentResponse, ...errorResponses(400, 429) } },
  operation,
  rateLimit: { max: 10, windowSecs: 60 },
  handle: async ({ body }, runtime, req) => {
    const { requestLoginOtp: r } = await runtime.run<Data>(operation, {
      input: { phone: body.phone, method: body.method ?? null, clientAddress: req.ip, ...deviceVariables(body) },
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
