import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreVerifyEmailOtpDocument } from '@rest-adapters/generated/operations';
import { DEMO } from '@lib/domain/demo/demo-ids';

/** core-api.md §4: the user's latest email code; the profile's email becomes the verified one. Errors as verify-otp. */
export default defineRoute({
  method: 'POST',
  url: '/auth/profile/email/verify-otp',
  summary: 'Verify an email code',
  description: [
    'Bearer (401 `unauthorized`). Checks the user’s latest email code; the address must be the one it was sent to. On success the profile’s email becomes this address, verified.',
    '',
    '- **400 `invalid_otp`**: a wrong code or another address (a wrong try either way; the message says how many are left), or no code was requested.',
    '- **400 `otp_expired`**: the code is past its 300 s or already used.',
    '- **429 `otp_attempts_exceeded`**: the fifth wrong try; the code is dead, request a new one.',
    '- 400 `bad_request`: not an email address, or a code that is not six digits.',
  ].join('\n'),
  tags: ['core: auth'],
  schema: {
    body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), code: Type.String({ pattern: '^[0-9]{6}$' }) }),
    response: {
      200: Type.Object(
        {
          status: Type.Literal('verified'),
          profile: Type.Object(
            { user_id: Type.String({ format: 'uuid' }), email: Type.String(), email_verified: Type.Boolean() },
            { additionalProperties: false },
          ),
        },
        { additionalProperties: false },
      ),
      ...errorResponses(400, 401, 429),
    },
  },
  operationId: 'CoreVerifyEmailOtp',
  examples: {
    body: { email: 'pemilik@kopidemo.example', code: '731046' },
    responses: {
      200: { status: 'verified', profile: { user_id: DEMO.owner.userId, email: 'pemilik@kopidemo.example', email_verified: true } },
    },
  },
  authenticate: userAuth,
  run: async ({ body }, { execute }) => {
    const data = await execute(CoreVerifyEmailOtpDocument, { email: body.email, code: body.code });
    return {
      status: 'verified' as const,
      profile: { user_id: data.verifyEmailOtp.userId, email: data.verifyEmailOtp.email, email_verified: data.verifyEmailOtp.emailVerified },
    };
  },
});
