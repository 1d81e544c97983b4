import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { type SessionGrant, SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { deviceVariables } from '../device-schema';
import { VerifyOtpBody } from './schema';

const operation = loadOperation(__dirname);

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
  operation,
  rateLimit: { max: 30, windowSecs: 60 },
  handle: async ({ body }, runtime) => {
    const { verifyLoginOtp } = await runtime.run<{ verifyLoginOtp: SessionGrant }>(operation, {
      input: { requestId: body.request_id, phone: body.phone, code: body.code, ...deviceVariables(body) },
    });
    return sessionBody(verifyLoginOtp, 'verified', runtime.config);
  },
});
