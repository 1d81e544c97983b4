import type { FastifyRequest } from 'fastify';
import { InvalidatedCache } from '@lib/events/cache-invalidation';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import type { Principal } from '@lib/auth/principal';
import { SIGNATURE_WINDOW_SECS, hmacHex, signatureMatches, signedString, skewSecs } from '@lib/auth/hmac-signature';
import { HttpError } from '@lib/rest/error-body';
import { authenticatedBy } from '@lib/rest/openapi';
import type { RouteRuntime } from '@lib/rest/route';
import { type PspBankCredentialQuery, PspBankCredentialDocument } from '@rest-adapters/generated/operations';

type Credential = NonNullable<PspBankCredentialQuery['bankCredential']>;

/** Header names of the two bank schemes (psp-api.md §5). */
export const SCHEMES = {
  lookup: { keyId: 'x-api-key-id', timestamp: 'x-timestamp', signature: 'x-signature' },
  event: { keyId: 'x-psp-key-id', timestamp: 'x-psp-timestamp', signature: 'x-psp-signature' },
} as const;
export type Scheme = keyof typeof SCHEMES;

/**
 * Credential material is cached for 60 s (DESIGN.md §7), so a revoked key stops working within a minute;
 * an unknown key id is remembered for 10 s so that guessing keys cannot load the database.
 */
const credentials = new InvalidatedCache<{ credential: Credential | null }>(10_000, 60_000, 'bank_credentials');
credentials.follow([{ kind: 'bank_credential', byKey: true }]);
const UNKNOWN_TTL_MS = 10_000;

const unauthorized = (message: string) => new HttpError(401, 'unauthorized', message);

/**
 * Verifies a bank-signed request: key id known, active and of this scheme's purpose; timestamp within
 * ±300 s; HMAC-SHA256 over method, request target (path and query), timestamp and raw body. Returns the
 * bank principal; every failure is a 401 with the reason.
 */
export function bankSignature(scheme: Scheme) {
  const headers = SCHEMES[scheme];
  return authenticatedBy(
    scheme === 'lookup' ? 'bankLookup' : 'bankEvent',
    async (req: FastifyRequest, runtime: RouteRuntime): Promise<Principal> => {
      const keyId = header(req, headers.keyId);
      const timestamp = header(req, headers.timestamp);
      const signature = header(req, headers.signature);
      if (!keyId || !timestamp || !signature) {
        throw unauthorized(
          `missing ${[!keyId && headers.keyId, !timestamp && headers.timestamp, !signature && headers.signature].filter(Boolean).join(', ')}`,
        );
      }
      const skew = skewSecs(timestamp);
      if (skew === null) throw unauthorized(`${headers.timestamp} must be RFC 3339 with an offset`);
      if (skew > SIGNATURE_WINDOW_SECS) throw unauthorized(`${headers.timestamp} is more than ${SIGNATURE_WINDOW_SECS} s from now`);
      const credential = await credentialOf(keyId, runtime);
      if (!credential || credential.status !== 'active' || credential.purpose !== scheme) throw unauthorized('unknown or inactive key');
      const rawBody = typeof req.rawBody === 'string' ? req.rawBody : '';
      const expected = hmacHex(credential.secret, signedString(req.method, req.url, timestamp, rawBody));
      if (!signatureMatches(expected, signature)) throw unauthorized('signature does not match');
      req.rateLimitKey = `psp:${credential.keyId}`;
      const { id: bankId, code: bankCode, tier, sandbox } = credential.bank;
      return { kind: 'bank', bankId, bankCode, tier, ...(sandbox ? { sandbox: true as const } : {}) };
    },
  );
}

async function credentialOf(keyId: string, runtime: RouteRuntime): Promise<Credential | null> {
  if (keyId.length > 64) return null;
  const loaded = await credentials.fetch(
    keyId,
    async () => ({ credential: (await runtime.execute(PspBankCredentialDocument, { keyId }, { acting: undefined })).bankCredential }),
    ({ credential }) => (credential ? 60_000 : UNKNOWN_TTL_MS),
  );
  return loaded.credential;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, for signature checks (set by the adapter's content-type parser). */
    rawBody?: string;
  }
}

/** The bank a route guarded by bankSignature acts for. */
export function actingBank(req: FastifyRequest): BankPrincipal {
  if (req.acting?.kind !== 'bank') throw new Error('route is not guarded by bankSignature');
  return req.acting;
}
