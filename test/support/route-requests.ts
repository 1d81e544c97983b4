import { createHmac } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { DEMO } from '@lib/domain/demo/demo-ids';
import type { RestRoute } from '@lib/rest/route';
import { REST_ADAPTERS } from '@rest-adapters';
import { internalAuth, userAuth } from '@rest-adapters/core/auth/user-auth';
import { posInternalAuth, posUserAuth } from '@rest-adapters/core/routes/poslite/pos-route';
import { messagingSignature } from '@rest-adapters/core/routes/webhooks/messaging-status';
import { partnerAuth } from '@rest-adapters/partner/auth/partner-auth';
import { sessionFor } from './core-auth';
import { adminQuery } from './test-database';
import { exportJWK, generateKeyPair } from 'jose';
import { HttpRecorder } from './http-recorder';
import { type TestStack, fileFixture, startTestStack } from './test-stack';

/**
 * What the security suites share: every REST route of REST_ADAPTERS with the credentials it needs (a route
 * added by another adapter is picked up; one with an authenticator unknown here fails loudly), signed requests and
 * values derived from the route's JSON schemas. What a request changed is read with `stack.database.tableCounts()`.
 */
export type AuthKind =
  'public' | 'bank-lookup' | 'bank-event' | 'partner' | 'user' | 'internal' | 'pos-internal' | 'pos-user' | 'messaging';

export const ALL_ROUTES: RestRoute[] = REST_ADAPTERS.flatMap((adapter) => adapter.routes);

const KNOWN_AUTHENTICATORS = new Map<unknown, AuthKind>([
  [partnerAuth, 'partner'],
  [userAuth, 'user'],
  [internalAuth, 'internal'],
  [posInternalAuth, 'pos-internal'],
  [posUserAuth, 'pos-user'],
  [messagingSignature, 'messaging'],
]);

export function authKindOf(route: RestRoute): AuthKind {
  if (!route.authenticate) return 'public';
  const known = KNOWN_AUTHENTICATORS.get(route.authenticate);
  if (known) return known;
  // Bank authenticators are made per scheme (bankSignature('lookup' | 'event')); the path family tells which.
  if (route.url.startsWith('/api/psp/')) return 'bank-lookup';
  if (route.url.startsWith('/psp/')) return 'bank-event';
  throw new Error(`${route.method} ${route.url}: unknown authenticator; teach test/support/route-requests.ts its credentials`);
}

export const MESSAGING_WEBHOOK_SECRET = 'security-suite-messaging-secret';

/** Settings the suites start the stack with: the messaging webhook configured, so its route is reachable. */
export const SECURITY_STACK_ENV = {
  MESSAGING_WEBHOOK_SECRET,
  MESSAGING_WEBHOOK_VERIFY_TOKEN: 'security-suite-verify-token',
  // Live event streams (Server-Sent Events) end at once, so an injected request to one completes.
  LIVE_MAX_STREAM_MS: '100',
};

export interface Credentials {
  userAuthorization: string;
  partnerAuthorization: string;
  internalKey: string;
}

/**
 * Credentials of the demo tenants: the demo owner's live session, a contract A partner token. The demo partner
 * credentials get a large per-minute budget, so that many requests test validation rather than the rate limit.
 */
export async function demoCredentials(stack: TestStack): Promise<Credentials> {
  await adminQuery(stack.database.adminUrl, `update merchant.partner_credentials set rate_limit_per_minute = 100000`);
  const { authorization } = await sessionFor(stack, DEMO.owner.userId);
  const token = await stack.rest.inject({
    method: 'POST',
    url: '/api/partner/v1/auth/token',
    payload: {
      credential_key: DEMO.partner.credentials.contractA.credentialKey,
      credential_secret: DEMO.partner.credentials.contractA.secret,
    },
  });
  if (token.statusCode !== 200) throw new Error(`partner token: ${token.statusCode} ${token.body}`);
  return {
    userAuthorization: authorization,
    partnerAuthorization: `Bearer ${token.json().access_token}`,
    internalKey: stack.config.secrets.internalApiKey,
  };
}

export const rfc3339Now = (shiftSecs = 0) => new Date(Date.now() + shiftSecs * 1000).toISOString();

export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Headers that authenticate `method target body` for a route of this kind (target = path with query, as sent). */
export function authHeaders(
  kind: AuthKind,
  credentials: Credentials,
  method: string,
  target: string,
  rawBody: string,
): Record<string, string> {
  const timestamp = rfc3339Now();
  // The sandbox routes answer only a sandbox bank (docs/api/sandbox.md): the demo sandbox bank signs them.
  const bank = target.startsWith('/psp/v1/sandbox/') ? DEMO.sandbox.bank : DEMO.bank;
  switch (kind) {
    case 'public':
      return {};
    case 'bank-lookup':
      return {
        'x-api-key-id': bank.lookupKeyId,
        'x-timestamp': timestamp,
        'x-signature': hmacHex(bank.lookupSecret, `${method}\n${target}\n${timestamp}\n${rawBody}`),
      };
    case 'bank-event':
      return {
        'x-psp-key-id': bank.eventKeyId,
        'x-psp-timestamp': timestamp,
        'x-psp-signature': hmacHex(bank.eventSecret, `${method}\n${target}\n${timestamp}\n${rawBody}`),
      };
    case 'partner':
      return { authorization: credentials.partnerAuthorization };
    case 'user':
    case 'pos-user':
      return { authorization: credentials.userAuthorization };
    case 'internal':
      return { 'x-internal-api-key': credentials.internalKey };
    case 'pos-internal':
      return { 'x-internal-api-key': credentials.internalKey, 'x-merchant-id': DEMO.merchantId };
    case 'messaging':
      return { 'x-hub-signature-256': `sha256=${hmacHex(MESSAGING_WEBHOOK_SECRET, rawBody)}` };
  }
}

/** Path parameters filled with ids of the demo tenant (the caller's own objects where one is known). */
const DEMO_PARAMS: Record<string, string> = {
  id: DEMO.merchantId,
  merchant_id: DEMO.merchantId,
  outlet_id: DEMO.outlets[0].id,
  partner_id: DEMO.partner.id,
  nmid: DEMO.outlets[0].nmid,
};

export function pathOf(route: RestRoute, params: Record<string, string> = {}): string {
  return route.url.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
    encodeURIComponent(params[name] ?? DEMO_PARAMS[name] ?? DEMO.merchantId),
  );
}

export function paramNames(route: RestRoute): string[] {
  return [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
}

/** An authenticated inject request; the query is appended to the path as given (already encoded). */
export function authedRequest(
  route: RestRoute,
  credentials: Credentials,
  parts: { path?: string; query?: string; body?: string; contentType?: string | null; headers?: Record<string, string> },
): InjectOptions {
  const target = `${parts.path ?? pathOf(route)}${parts.query ? `?${parts.query}` : ''}`;
  const rawBody = parts.body ?? '';
  const headers: Record<string, string> = {
    ...authHeaders(authKindOf(route), credentials, route.method, target, rawBody),
    ...parts.headers,
  };
  if (parts.body !== undefined && parts.contentType !== null) headers['content-type'] = parts.contentType ?? 'application/json';
  return {
    method: route.method,
    url: target,
    headers,
    ...(parts.body !== undefined ? { payload: rawBody } : {}),
    remoteAddress: nextAddress(),
  };
}

let addressSeq = 0;
/** A client address per request: per-address route limits must not decide what these suites test. */
function nextAddress(): string {
  addressSeq += 1;
  return `10.${100 + ((addressSeq >> 16) & 127)}.${(addressSeq >> 8) & 255}.${addressSeq & 255}`;
}

/** JSON types a schema accepts (empty: anything). TypeBox unions, nullable and literals included. */
export function acceptedTypes(schema: TSchema | undefined): Set<string> {
  if (!schema) return new Set();
  const s = schema as Record<string, unknown>;
  const variants = (s.anyOf ?? s.oneOf) as TSchema[] | undefined;
  if (variants) {
    const all = variants.map(acceptedTypes);
    return all.some((t) => t.size === 0) ? new Set() : new Set(all.flatMap((t) => [...t]));
  }
  if (typeof s.type === 'string') return new Set(s.type === 'integer' ? ['integer', 'number'] : [s.type]);
  if (Array.isArray(s.type)) return new Set(s.type as string[]);
  if (s.const !== undefined) return new Set([typeof s.const === 'number' ? 'number' : typeof s.const]);
  return new Set();
}

/** Values of every JSON type; the bad-input suite picks those a property does not accept. */
export const VALUES_BY_TYPE: Record<string, unknown[]> = {
  string: ['x', '', '\u0000', 'ID1026112200001'],
  number: [1.5, -1, 1e308],
  integer: [7, 0, -1],
  boolean: [true, false],
  null: [null],
  array: [[], [1, 'a'], [[[]]]],
  object: [{}, { a: 1 }, { __proto__: { polluted: true } }],
};

/** The properties (with their schemas) and required names of an object schema; none for other schemas. */
export function propertiesOf(schema: TSchema | undefined): { properties: Record<string, TSchema>; required: string[] } {
  const s = (schema ?? {}) as { properties?: Record<string, TSchema>; required?: string[]; anyOf?: TSchema[]; oneOf?: TSchema[] };
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const parts = variants.map(propertiesOf);
    return { properties: Object.assign({}, ...parts.map((p) => p.properties)), required: parts.length ? parts[0].required : [] };
  }
  return { properties: s.properties ?? {}, required: s.required ?? [] };
}

const samplesByPattern = new Map<string, string>();
/** One string matching `pattern`, the same every time (fast-check's regex arbitrary is costly to make, so made once). */
function sampleMatching(pattern: string): string {
  let sample = samplesByPattern.get(pattern);
  if (sample === undefined) {
    sample = fc.sample(fc.stringMatching(new RegExp(pattern)), { seed: 8, numRuns: 1 })[0];
    samplesByPattern.set(pattern, sample);
  }
  return sample;
}

/** Schema-derived "plausible" value for a string property, so an injected value lands beside valid neighbours. */
export function sampleValue(schema: TSchema, name: string): unknown {
  const s = schema as Record<string, unknown>;
  const variants = (s.anyOf ?? s.oneOf) as TSchema[] | undefined;
  if (variants) return sampleValue(variants.find((v) => (v as { type?: string }).type !== 'null') ?? variants[0], name);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (s.type) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: (s.minItems as number) ?? 0 }, () => sampleValue(s.items as TSchema, name));
    case 'object': {
      const { properties, required } = propertiesOf(schema);
      return Object.fromEntries(required.map((key) => [key, sampleValue(properties[key], key)]));
    }
    case 'string': {
      if (s.format === 'uuid' || /(^|_)id$/.test(name)) return DEMO_PARAMS[name] ?? DEMO.merchantId;
      if (s.format === 'date') return '2026-11-02';
      if (s.format === 'date-time') return rfc3339Now();
      if (typeof s.pattern === 'string') return sampleMatching(s.pattern);
      return 'a'.repeat(Math.max((s.minLength as number) ?? 1, 1));
    }
    default:
      return 'a';
  }
}

/** The security stack (`startSecurityStack`) of the calling `describe`: started in its `beforeAll`, closed in its `afterAll`. */
export function securityStackOfSuite(): { stack: TestStack; credentials: Credentials } {
  const suite = {} as { stack: TestStack; credentials: Credentials };
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    let stack: TestStack, credentials: Credentials;
    ({ stack, credentials, close } = await startSecurityStack());
    Object.assign(suite, { stack, credentials });
  });
  afterAll(() => close?.());
  return suite;
}

/**
 * The stack the route-wide suites run against: a local identity provider (JWKS of a key made here) so that
 * external-phone-verify is configured, the messaging webhook configured, and demo credentials for every surface.
 */
async function startSecurityStack(): Promise<{ stack: TestStack; credentials: Credentials; close: () => Promise<void> }> {
  const { fixture: idp, release } = await fileFixture('security-idp', async () => {
    const jwk = { ...(await exportJWK((await generateKeyPair('RS256')).publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    return new HttpRecorder(() => ({ status: 200, body: { keys: [jwk] } })).start();
  });
  const stack = await startTestStack({
    ...SECURITY_STACK_ENV,
    LOG_LEVEL: 'warn',
    EXTERNAL_VERIFIER_JWKS_URL: `${idp.url}/jwks`,
    EXTERNAL_VERIFIER_ISSUER: 'https://idp.test',
    EXTERNAL_VERIFIER_AUDIENCE: 'qris-app',
  });
  return {
    stack,
    credentials: await demoCredentials(stack),
    close: async () => {
      await stack.close();
      await release();
    },
  };
}
