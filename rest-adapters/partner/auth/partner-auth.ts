import type { FastifyRequest } from 'fastify';
import { InvalidatedCache } from '@lib/events/cache-invalidation';
import { SIGNATURE_WINDOW_SECS, hmacHex, signatureMatches, signedString, skewSecs } from '@lib/auth/hmac-signature';
import type { Principal } from '@lib/auth/principal';
import { verifyPartnerToken } from '@lib/auth/partner-token';
import { HttpError } from '@lib/rest/error-body';
import { authenticatedBy } from '@lib/rest/openapi';
import type { RouteRuntime } from '@lib/rest/route';
import {
  PartnerCredentialDocument,
  type PartnerCredentialQuery,
  PartnerMerchantAccessDocument,
  type PartnerMerchantAccessQuery,
} from '@rest-adapters/generated/operations';

export type PartnerPrincipal = Extract<Principal, { kind: 'partner' }>;

type Credential = NonNullable<PartnerCredentialQuery['partnerCredential']>;

/** Partner HMAC mode (DESIGN.md §4): the bank-lookup pattern with these headers. */
export const PARTNER_HMAC_HEADERS = {
  keyId: 'x-partner-key-id',
  timestamp: 'x-partner-timestamp',
  signature: 'x-partner-signature',
} as const;

const UNKNOWN_TTL_MS = 10_000;

/**
 * Credentials by key, each kept `PARTNER_CREDENTIAL_CACHE_MS` of the REST app that fetched it (an unknown key at
 * most 10 s), so a revoked credential stops within that time.
 */
const credentials = new InvalidatedCache<{ credential: Credential | null }>(10_000, 60_000, 'partner_credentials');
credentials.follow([
  { kind: 'partner_credential', byKey: true },
  { kind: 'partner', byKey: false },
]);

/** Forgets every cached credential (tests; an operator-triggered reload would use it too). */
export function clearPartnerCredentialCache(): void {
  credentials.clear();
}

/** partner-api.md §8: one budget per credential across every data endpoint; the credential's own rate replaces max. */
export const PARTNER_RATE_LIMIT = { max: 60, windowSecs: 60, budget: 'partner-api' } as const;

const unauthorized = (message: string) => new HttpError(401, 'unauthorized', message);

/**
 * Authenticates a partner request (RestRoute.authenticate): `Authorization: Bearer <token>` from the token
 * endpoint (signature, alg, iss, aud, exp), or — for credentials configured so — HMAC signing with
 * X-Partner-Key-ID / X-Partner-Timestamp / X-Partner-Signature over `METHOD\ntarget\ntimestamp\nraw body`,
 * ±300 s. Either way the credential must still be active (status cached ≤ PARTNER_CREDENTIAL_CACHE_MS, at most
 * 60 s, so a revoked credential stops within a minute) and its partner active. Rate limits count per credential.
 */
export async function partnerAuth(req: FastifyRequest, runtime: RouteRuntime): Promise<PartnerPrincipal> {
  const authorization = header(req, 'authorization');
  const usesHmac = !authorization && Object.values(PARTNER_HMAC_HEADERS).some((name) => header(req, name));
  const { credential, scopes } = usesHmac ? await fromSignature(req, runtime) : await fromBearer(authorization, runtime);
  req.rateLimitKey = `partner:${credential.id}`;
  req.rateLimitMax = credential.rateLimitPerMinute;
  req.partnerCredential = {
    id: credential.id,
    credentialKey: credential.credentialKey,
    outletsEnabled: credential.outletsEnabled,
    partnerCode: credential.partner.code,
  };
  // The schema's String holds A or B (the merchant subgraph stores nothing else).
  const contract = credential.contract as PartnerPrincipal['contract'];
  return { kind: 'partner', partnerId: credential.partner.id, credentialId: credential.id, scopes, contract };
}

authenticatedBy('partner', partnerAuth);

async function fromBearer(authorization: string | undefined, runtime: RouteRuntime) {
  if (!authorization) throw unauthorized('missing Authorization bearer token');
  const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i.exec(authorization);
  if (!match) throw unauthorized('Authorization must be "Bearer <access token>"');
  const claims = await verifyPartnerToken(match[1], runtime.config.secrets.accepted.partnerTokenSecret);
  if (!claims) throw unauthorized('access token invalid or expired');
  const credential = await credentialOf(claims.credentialKey, runtime);
  if (
    !usable(credential) ||
    credential.id !== claims.credentialId ||
    credential.authMode !== 'jwt' ||
    credential.partner.id !== claims.partnerId
  ) {
    throw unauthorized('credential revoked or inactive');
  }
  // Scopes removed from the credential since the token was issued no longer apply.
  return { credential, scopes: claims.scopes.filter((scope) => credential.scopes.includes(scope)) };
}

async function fromSignature(req: FastifyRequest, runtime: RouteRuntime) {
  const keyId = header(req, PARTNER_HMAC_HEADERS.keyId);
  const timestamp = header(req, PARTNER_HMAC_HEADERS.timestamp);
  const signature = header(req, PARTNER_HMAC_HEADERS.signature);
  if (!keyId || !timestamp || !signature) {
    const missing = [
      !keyId && PARTNER_HMAC_HEADERS.keyId,
      !timestamp && PARTNER_HMAC_HEADERS.timestamp,
      !signature && PARTNER_HMAC_HEADERS.signature,
    ];
    throw unauthorized(`missing ${missing.filter(Boolean).join(', ')}`);
  }
  const skew = skewSecs(timestamp);
  if (skew === null) throw unauthorized(`${PARTNER_HMAC_HEADERS.timestamp} must be RFC 3339 with an offset`);
  if (skew > SIGNATURE_WINDOW_SECS)
    throw unauthorized(`${PARTNER_HMAC_HEADERS.timestamp} is more than ${SIGNATURE_WINDOW_SECS} s from now`);
  const credential = await credentialOf(keyId, runtime);
  if (!usable(credential) || credential.authMode !== 'hmac' || !credential.secret) throw unauthorized('unknown or inactive key');
  const rawBody = typeof req.rawBody === 'string' ? req.rawBody : '';
  const expected = hmacHex(credential.secret, signedString(req.method, req.url, timestamp, rawBody));
  if (!signatureMatches(expected, signature)) throw unauthorized('signature does not match');
  return { credential, scopes: credential.scopes };
}

function usable(credential: Credential | null): credential is Credential {
  return !!credential && credential.status === 'active' && credential.partner.status === 'active';
}

async function credentialOf(credentialKey: string, runtime: RouteRuntime): Promise<Credential | null> {
  if (credentialKey.length > 64) return null;
  const cacheMs = runtime.config.partnerCredentialCacheMs;
  const fetch = async () => ({
    credential: (await runtime.execute(PartnerCredentialDocument, { credentialKey }, { acting: undefined })).partnerCredential,
  });
  if (cacheMs <= 0) return (await fetch()).credential;
  const loaded = await credentials.fetch(credentialKey, fetch, ({ credential }) =>
    credential ? cacheMs : Math.min(cacheMs, UNKNOWN_TTL_MS),
  );
  return loaded.credential;
}

/** Refuses (403 forbidden) a partner whose token lacks every one of `scopes` (any one suffices, e.g. scoring.read or risk-summary.read). */
export function requireScope(principal: Principal | undefined, ...scopes: string[]): PartnerPrincipal {
  if (principal?.kind !== 'partner') throw new HttpError(403, 'forbidden', 'a partner credential is required');
  if (!scopes.some((scope) => principal.scopes.includes(scope)))
    throw new HttpError(403, 'forbidden', `requires scope ${scopes.join(' or ')}`);
  return principal;
}

/** Refuses the four outlet endpoints unless the operator enabled them for the credential (partner-api.md §4). */
export function requireOutletsEnabled(req: FastifyRequest): void {
  if (!req.partnerCredential?.outletsEnabled) throw new HttpError(403, 'forbidden', 'outlet endpoints are not enabled for this credential');
}

export type MerchantAccess = NonNullable<PartnerMerchantAccessQuery['partnerMerchantAccess']>;

/**
 * The partner's data-scope wall for one merchant (run as the partner; the merchant subgraph decides): the
 * access, or 403 forbidden when the merchant is outside the partner's scope (partner-api.md §1, §7).
 */
export async function requireMerchantAccess(runtime: RouteRuntime, merchantId: string): Promise<MerchantAccess> {
  const { partnerMerchantAccess } = await runtime.execute(PartnerMerchantAccessDocument, { merchantId });
  if (!partnerMerchantAccess) throw new HttpError(403, 'forbidden', 'the merchant is outside the partner’s scope');
  return partnerMerchantAccess;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated partner credential (set by partnerAuth), for per-credential switches. */
    partnerCredential?: { id: string; credentialKey: string; outletsEnabled: boolean; partnerCode: string };
  }
}
