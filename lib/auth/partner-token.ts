import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { hs256Key, verifyHs256 } from './hs256-key';

/**
 * Partner access tokens (partner-api.md §2, §5): HS256 JWTs signed with PARTNER_TOKEN_SECRET, issuer and
 * audience fixed, 900 s for contract A and 3600 s for contract B. Claims: sub = credential id, partner_id,
 * scopes, contract, credential_key (so the adapter can re-check the credential's status), jti, iat, exp.
 */
export type PartnerContract = 'A' | 'B';
export const PARTNER_TOKEN_ISSUER = 'qris-partner-api';
export const PARTNER_TOKEN_AUDIENCE = 'qris-partner-api';
export const PARTNER_TOKEN_LIFETIME_SECS: Record<PartnerContract, number> = { A: 900, B: 3600 };

export interface PartnerTokenClaims {
  credentialId: string;
  credentialKey: string;
  partnerId: string;
  scopes: string[];
  contract: PartnerContract;
}

export async function signPartnerToken(
  claims: PartnerTokenClaims,
  secret: string,
  now = Date.now(),
): Promise<{ token: string; expiresInSecs: number; jti: string }> {
  const expiresInSecs = PARTNER_TOKEN_LIFETIME_SECS[claims.contract];
  const iat = Math.floor(now / 1000);
  const jti = randomUUID();
  const token = await new SignJWT({
    partner_id: claims.partnerId,
    scopes: claims.scopes,
    contract: claims.contract,
    credential_key: claims.credentialKey,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(PARTNER_TOKEN_ISSUER)
    .setAudience(PARTNER_TOKEN_AUDIENCE)
    .setSubject(claims.credentialId)
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(iat + expiresInSecs)
    .sign(await hs256Key(secret));
  return { token, expiresInSecs, jti };
}

/** The claims of a valid token (signature under an accepted secret, alg, iss, aud, exp checked); null for anything else. */
export async function verifyPartnerToken(token: string, secrets: string | readonly string[]): Promise<PartnerTokenClaims | null> {
  const payload = await verifyHs256(token, secrets, {
    issuer: PARTNER_TOKEN_ISSUER,
    audience: PARTNER_TOKEN_AUDIENCE,
    requiredClaims: ['sub', 'exp', 'jti'],
  });
  if (!payload) return null;
  const { sub, partner_id, scopes, contract, credential_key } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || typeof partner_id !== 'string' || typeof credential_key !== 'string') return null;
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string')) return null;
  if (contract !== 'A' && contract !== 'B') return null;
  return { credentialId: sub, credentialKey: credential_key, partnerId: partner_id, scopes, contract };
}
