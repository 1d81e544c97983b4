import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { CoreRequestLoginOtpDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { OtpSentResponse, RequestOtpBody } from './schema';

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
  operationId: 'CoreRequestLoginOtp',
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
