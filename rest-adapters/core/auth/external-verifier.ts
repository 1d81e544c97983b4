import { type JWTPayload, createRemoteJWKSet, jwtVerify } from 'jose';
import type { Config } from '@lib/config/config';
import { HttpError } from '@lib/rest/error-body';

/** jose errors that mean "this token is not acceptable" (401); any other failure is the key source's (502). */
const TOKEN_ERRORS = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

/**
 * One remote key set per JWKS URL for the life of the process. jose caches the keys it fetched for 10 min
 * (cacheMaxAge) and refetches at most every 30 s (cooldownDuration) when a token names an unknown key id, so
 * the identity provider's key rotation is picked up without a restart and unknown kids cannot flood it.
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keySetOf(url: string, timeoutMs: number) {
  let keySet = keySets.get(url);
  if (!keySet)
    keySets.set(
      url,
      (keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: timeoutMs, cooldownDuration: 30_000, cacheMaxAge: 600_000 })),
    );
  return keySet;
}

export interface ExternalIdentity {
  /** The phone claim as the identity provider wrote it (not yet normalised). */
  phone: string;
  issuer: string;
  subject: string | null;
}

/**
 * Verifies an identity provider's ID token (core-api.md §4 external-phone-verify): RS256 only, signature against
 * the configured JWKS, `iss`, `aud`, `exp` (required) and `nbf`. 503 `external_verifier_not_configured`,
 * 401 `invalid_external_token` (bad signature, expired, malformed, wrong issuer or audience, no phone claim),
 * 502 `external_verifier_unreachable` (the key set cannot be fetched or read).
 */
export async function verifyExternalIdToken(idToken: string, config: Config): Promise<ExternalIdentity> {
  const { jwksUrl, issuer, audience, phoneClaim, timeoutMs } = config.externalVerifier;
  if (!jwksUrl || !issuer || !audience)
    throw new HttpError(503, 'external_verifier_not_configured', 'external phone verification is not configured');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySetOf(jwksUrl, timeoutMs), {
      algorithms: ['RS256'],
      issuer,
      audience,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && TOKEN_ERRORS.has(code))
      throw new HttpError(401, 'invalid_external_token', 'the ID token is invalid or expired');
    throw new HttpError(502, 'external_verifier_unreachable', 'the identity provider’s keys could not be fetched');
  }
  const phone = payload[phoneClaim];
  if (typeof phone !== 'string' || !phone) throw new HttpError(401, 'invalid_external_token', `the ID token carries no ${phoneClaim}`);
  return { phone, issuer: payload.iss ?? issuer, subject: payload.sub ?? null };
}
