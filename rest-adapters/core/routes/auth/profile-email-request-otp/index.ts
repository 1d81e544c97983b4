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
  description: [
    'Bearer (401 `unauthorized`). A six-digit code by email to the given address, valid 300 s and usable once; it replaces every earlier email code of the user. The same limits as login codes apply, counted per user:',
    '',
    '- **429 `otp_cooldown`**: a code was sent less than 60 s ago; **429 `otp_rate_limited`**: 5 codes per user, or 20 per client address with login codes (defaults, rolling hour). Both carry `retry_after_secs`.',
    '- **503 `otp_delivery_failed`** (`retry_after_secs` 30): the email provider did not take it; the code is discarded and counts for neither the cooldown nor the caps.',
    '- 400 `bad_request`: not an email address.',
  ].join('\n'),
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
  examples: {
    body: { email: 'pemilik@kopidemo.example' },
    responses: { 200: { status: 'otp_sent', email: 'pemilik@kopidemo.example', expires_in_secs: 300 } },
  },
  authenticate: userAuth,
  run: async ({ body }, { execute, request }) => {
    const { requestEmailOtp: r } = await execute(CoreRequestEmailOtpDocument, { email: body.email, clientAddress: request.ip });
    return { status: 'otp_sent' as const, email: r.email, expires_in_secs: r.expiresInSecs };
  },
});
