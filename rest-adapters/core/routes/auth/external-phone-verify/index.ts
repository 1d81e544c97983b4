import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { verifyExternalIdToken } from '@rest-adapters/core/auth/external-verifier';
import { type SessionGrant, SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { CoreExternalPhoneLoginDocument } from '@rest-adapters/generated/operations';
import { deviceVariables } from '../device-schema';
import { ExternalVerifyBody } from './schema';

/**
 * core-api.md §4 and §7: the ID token of an identity provider is the credential. Verified here (the adapter
 * faces the outside; see external-verifier.ts), then the merchant subgraph creates the user if absent, trusts
 * the device and opens a session; no login_alert on this path. Errors exactly as §7.
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/external-phone-verify',
  summary: 'Log in with a phone verified by the identity provider',
  tags: ['core: auth'],
  schema: { body: ExternalVerifyBody, response: { 200: SessionBody, ...errorResponses(400, 401, 429, 502) } },
  operationId: 'CoreExternalPhoneLogin',
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
