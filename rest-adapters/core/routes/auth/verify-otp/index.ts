import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { CoreVerifyLoginOtpDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { VerifyOtpBody } from './schema';
import { DEMO_DEVICE, DEMO_OTP_REQUEST_ID, DEMO_PHONE, DEMO_SESSION } from '@rest-adapters/core/examples';

/**
 * core-api.md §4: a session (status verified). 400 `invalid_otp` (wrong code, unknown request), 400
 * `otp_expired` (expired, used, or replaced by a newer code), 429 `otp_attempts_exceeded` (fifth wrong try:
 * the code is dead). The device becomes trusted; the user's other devices get a login_alert push.
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/verify-otp',
  summary: 'Verify a login code and open a session',
  description: [
    'The code of `request_id` for this phone opens a session (`status: verified`): the user is created if the phone has no account, the device (`device_id`) becomes trusted, and the user’s other devices with push tokens get a `login_alert` push with a link that cancels this login (`GET /auth/device-login/cancel`).',
    '',
    '- **400 `invalid_otp`**: a wrong code (the message says how many tries are left), or a `request_id` that is unknown or another phone’s (the same answer, so request ids cannot be probed).',
    '- **400 `otp_expired`**: the code is past its 300 s, already used, or replaced by a newer code; request a new one.',
    '- **429 `otp_attempts_exceeded`**: the fifth wrong try; the code is dead (even the right code is refused from then on) and a new one must be requested. Tries are counted before the code is compared, so concurrent guesses cannot exceed five.',
    '- 400 `bad_request`: a malformed phone, `request_id` or code (not six digits). 429 `rate_limit_exceeded`: more than 30 requests a minute from the client address.',
  ].join('\n'),
  tags: ['core: auth'],
  schema: { body: VerifyOtpBody, response: { 200: SessionBody, ...errorResponses(400, 429) } },
  operationId: 'CoreVerifyLoginOtp',
  examples: {
    body: { request_id: DEMO_OTP_REQUEST_ID, phone: DEMO_PHONE.typed, code: '482913', ...DEMO_DEVICE },
    responses: { 200: DEMO_SESSION },
  },
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const { verifyLoginOtp } = await execute(CoreVerifyLoginOtpDocument, {
      input: { requestId: body.request_id, phone: body.phone, code: body.code, ...deviceVariables(body) },
    });
    return sessionBody(verifyLoginOtp, 'verified', config);
  },
});
