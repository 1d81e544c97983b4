import { randomUUID } from 'node:crypto';
import { type JWTPayload, type JWTVerifyGetKey, SignJWT, createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { Config } from '../config/config';
import { hs256Key } from './hs256-key';

/** The roles an operator token may carry; what each may do is lib/domain/access/operator-roles.ts. */
export const OPERATOR_ROLES = ['admin', 'reviewer', 'support', 'partner-manager', 'bank-manager'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * Operator (dashboard) tokens: JWTs with `sub` = operator id, `name`, `roles` (known roles only), `iss` and `aud`
 * as configured, `exp` required. HS256 with OPERATOR_TOKEN_SECRET, or RS256/ES256 against OPERATOR_JWKS_URL
 * (jose's remote key set: keys cached, an unknown `kid` refetched at most every 30 s).
 */
export interface OperatorClaims {
  operatorId: string;
  name: string | null;
  roles: OperatorRole[];
}

export const OPERATOR_TOKEN_MAX_TTL_SECS = 12 * 3600;

export async function signOperatorToken(
  input: { operatorId?: string; name: string; roles: OperatorRole[]; ttlSecs: number },
  settings: Config['operatorTokens'],
): Promise<string> {
  if (!settings.secret) throw new Error('OPERATOR_TOKEN_SECRET is not set');
  return new SignJWT({ name: input.name, roles: input.roles })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(input.operatorId ?? `dev:${input.name}`)
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${input.ttlSecs}s`)
    .sign(await hs256Key(settings.secret));
}

const keySets = new Map<string, JWTVerifyGetKey>();
function remoteKeySet(url: string): JWTVerifyGetKey {
  let keys = keySets.get(url);
  if (!keys) keySets.set(url, (keys = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 })));
  return keys;
}

/** The claims of a valid operator token; null for anything else (bad signature, alg, issuer, audience, expiry, no roles claim). */
export async function verifyOperatorToken(token: string, settings: Config['operatorTokens']): Promise<OperatorClaims | null> {
  let payload: JWTPayload;
  try {
    const { alg } = decodeProtectedHeader(token);
    const options = { issuer: settings.issuer, audience: settings.audience, requiredClaims: ['sub', 'exp'] };
    if (alg === 'HS256' && settings.secret) {
      ({ payload } = await jwtVerify(token, await hs256Key(settings.secret), { ...options, algorithms: ['HS256'] }));
    } else if ((alg === 'RS256' || alg === 'ES256') && settings.jwksUrl) {
      ({ payload } = await jwtVerify(token, remoteKeySet(settings.jwksUrl), { ...options, algorithms: ['RS256', 'ES256'] }));
    } else {
      return null;
    }
  } catch {
    return null;
  }
  const roles = Array.isArray(payload.roles)
    ? payload.roles.filter((r): r is OperatorRole => (OPERATOR_ROLES as readonly unknown[]).includes(r))
    : null;
  if (typeof payload.sub !== 'string' || !roles) return null;
  return { operatorId: payload.sub, name: typeof payload.name === 'string' ? payload.name : null, roles };
}
