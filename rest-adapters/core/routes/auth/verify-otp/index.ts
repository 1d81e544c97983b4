import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { CoreVerifyLoginOtpDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { VerifyOtpBody } from './schema';

/**
 * core-api.md §4: a session (status verified). 400 `invalid_otp` (wrong code, unknown request), 400
 * `otp_expired` (expired, used, or replaced by a newer code), 429 `otp_attempts_exceeded` (fifth wrong try:
 * the code is dead). The device becomes trusted; the user's other devices get a login_alert push.
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/verify-otp',
  summary: 'Verify a login code and open a session',
  tags: ['core: auth'],
  schema: { body: VerifyOtpBody, response: { 200: SessionBody, ...errorResponses(400, 429) } },
  operationId: 'CoreVerifyLoginOtp',
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const { verifyLoginOtp } = await execute(CoreVerifyLoginOtpDocument, {
      input: { requestId: body.request_id, phone: body.phone, code: body.code, ...deviceVariables(body) },
    });
    return sessionBody(verifyLoginOtp, 'verified', config);
  },
});
