import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreRequestEmailOtpDocument } from '@rest-adapters/generated/operations';

/** core-api.md §4: a six-digit code to the email (same rules as login codes: 300 s, 60 s cooldown, caps, 5 tries). */
export default defineRoute({
  method: 'POST',
  url: '/auth/profile/email/request-otp',
  summary: 'Send an email verification code',
  tags: ['core: auth'],
  schema: {
    body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) }),
    response: {
      200: Type.Object(
        { status: Type.Literal('otp_sent'), email: Type.String(), expires_in_secs: Type.Integer() },
        { additionalProperties: false },
      ),
      ...errorResponses(400, 401, 429),
    },
  },
  operationId: 'CoreRequestEmailOtp',
  authenticate: userAuth,
  run: async ({ body }, { execute, request }) => {
    const { requestEmailOtp: r } = await execute(CoreRequestEmailOtpDocument, { email: body.email, clientAddress: request.ip });
    return { status: 'otp_sent' as const, email: r.email, expires_in_secs: r.expiresInSecs };
  },
});
