import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { verifyExternalIdToken } from '@rest-adapters/core/auth/external-verifier';
import { type SessionGrant, SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { CoreExternalPhoneLoginDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { ExternalVerifyBody } from './schema';
import { DEMO_DEVICE, DEMO_OTP_REQUEST_ID, DEMO_PHONE, DEMO_SESSION } from '@rest-adapters/core/examples';

/**
 * core-api.md §4 and §7: the ID token of an identity provider is the credential. Verified here (the adapter
 * faces the outside; see external-verifier.ts), then the merchant subgraph creates the user if absent, trusts
 * the device and opens a session; no login_alert on this path. Errors exactly as §7.
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/external-phone-verify',
  summary: 'Log in with a phone verified by the identity provider',
  description: [
    'The identity provider’s ID token is the credential: an RS256 JWT signed by a key of the configured key set (JWKS), with the configured issuer and audience, an `exp` in the future (and `nbf`, if present, past), and the phone in the configured claim (default `phone_number`). The user is created if absent, the device (`device_id`) becomes trusted and a session opens (`status: verified`); no `login_alert` is sent. `flow_mode`, `fallback_reason`, `hint_phone` and `request_id` are kept for audit only.',
    '',
    '- **401 `invalid_external_token`**: a bad signature, an unknown key, an algorithm other than RS256, a wrong issuer or audience, expired or not yet valid, malformed, or no phone claim.',
    '- **400 `unsupported_phone_region`**: the verified phone is not an Indonesian number.',
    '- **502 `external_verifier_unreachable`**: the key set could not be fetched or read (5 s timeout by default).',
    '- **503 `external_verifier_not_configured`**: the deployment has not configured the verifier (key set URL, issuer or audience); no default exists.',
    '- 500 `user_persist_failed` (the user could not be saved) or `token_issue_failed` (the session token could not be signed). 400 `bad_request`: a malformed body or device fields. 429 `rate_limit_exceeded`: more than 30 requests a minute from the client address.',
  ].join('\n'),
  tags: ['core: auth'],
  schema: { body: ExternalVerifyBody, response: { 200: SessionBody, ...errorResponses(400, 401, 429, 502) } },
  operationId: 'CoreExternalPhoneLogin',
  examples: {
    body: {
      id_token:
        'eyJhbGciOiJSUzI1NiIsImtpZCI6ImRlbW8ta2V5LTEiLCJ0eXAiOiJKV1QifQ.eyJwaG9uZV9udW1iZXIiOiIrNjI4MTIwMDAwMDAwMSIsImV4cCI6MTc5NTA1NjMwMH0.c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxlLWlkLXRva2Vu',
      request_id: DEMO_OTP_REQUEST_ID,
      ...DEMO_DEVICE,
      flow_mode: 'login_fallback',
      fallback_reason: 'messaging_unavailable',
      hint_phone: DEMO_PHONE.e164,
    },
    responses: { 200: DEMO_SESSION },
  },
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const identity = await verifyExternalIdToken(body.id_token, config);
    const phone = toIndonesianE164(identity.phone);
    if (!phone) throw new HttpError(400, 'unsupported_phone_region', 'only Indonesian phone numbers are supported');
    let grant: SessionGrant;
    try {
      ({ externalPhoneLogin: grant } = await execute(CoreExternalPhoneLoginDocument, {
        input: {
          phone,
          issuer: identity.issuer,
          subject: identity.subject,
          requestId: body.request_id ?? null,
          flowMode: body.flow_mode ?? null,
          fallbackReason: body.fallback_reason ?? null,
          hintPhone: body.hint_phone ?? null,
          ...deviceVariables(body),
        },
      }));
    } catch (error) {
      if (error instanceof HttpError && error.status === 500)
        throw new HttpError(500, 'user_persist_failed', 'the user could not be saved');
      throw error;
    }
    try {
      return await sessionBody(grant, 'verified', config);
    } catch {
      throw new HttpError(500, 'token_issue_failed', 'the session token could not be issued');
    }
  },
});
