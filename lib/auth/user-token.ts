import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { hs256Key, verifyHs256 } from './hs256-key';

/**
 * App users' access tokens (core-api.md §2 Session): HS256 JWTs signed with USER_TOKEN_SECRET, issuer and
 * audience fixed, 3600 s. Claims: sub = user id, sid = the session (device login) it belongs to, jti, iat, exp.
 * The same token is accepted by the core REST adapter and by the gateway (issue 7).
 */
export const USER_TOKEN_ISSUER = 'qris-auth';
export const USER_TOKEN_AUDIENCE = 'qris-app';
export const USER_ACCESS_TOKEN_LIFETIME_SECS = 3600;

export interface UserTokenClaims {
  userId: string;
  sessionId: string;
}

export async function signUserAccessToken(
  claims: UserTokenClaims,
  secret: string,
  now = Date.now(),
): Promise<{ token: string; expiresInSecs: number }> {
  const iat = Math.floor(now / 1000);
  const token = await new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(USER_TOKEN_ISSUER)
    .setAudience(USER_TOKEN_AUDIENCE)
    .setSubject(claims.userId)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + USER_ACCESS_TOKEN_LIFETIME_SECS)
    .sign(await hs256Key(secret));
  return { token, expiresInSecs: USER_ACCESS_TOKEN_LIFETIME_SECS };
}

/** The claims of a valid token (signature under an accepted secret, alg, iss, aud, exp checked); null for anything else. */
export async function verifyUserAccessToken(token: string, secrets: string | readonly string[]): Promise<UserTokenClaims | null> {
  const payload = await verifyHs256(token, secrets, {
    issuer: USER_TOKEN_ISSUER,
    audience: USER_TOKEN_AUDIENCE,
    requiredClaims: ['sub', 'exp', 'sid'],
  });
  const { sub, sid } = (payload ?? {}) as Record<string, unknown>;
  if (typeof sub !== 'string' || typeof sid !== 'string') return null;
  return { userId: sub, sessionId: sid };
}
