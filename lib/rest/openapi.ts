import { writeTimes } from './response-times';
import type { Config } from '../config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { DEPRECATION_POLICY_LINK } from './deprecation';
import type { Authenticate, RestAdapter, RestRoute } from './route';

/**
 * The cross-cutting parts of the OpenAPI document (/openapi.json), derived from what each route declares: who may
 * call it (its authenticator's credential kind), its rate limit, its cache, the error statuses and codes it
 * documents, and its examples. Routes declare only what is their own; `finishDocument` adds the rest.
 */

type Json = Record<string, any>;

/** Every credential an API accepts, as OpenAPI security schemes (one per header; signed schemes need all three). */
export const SECURITY_SCHEMES: Record<string, Json> = {
  BankLookupKeyId: apiKey('X-API-Key-ID', 'Your bank’s lookup key id, e.g. `lk_demo` of the demo bank.'),
  BankLookupTimestamp: apiKey(
    'X-Timestamp',
    'RFC 3339 time with an offset, within ±300 s of the server, e.g. `2026-11-25T09:30:00+07:00`.',
  ),
  BankLookupSignature: apiKey(
    'X-Signature',
    'Lowercase hex HMAC-SHA256 under the lookup key secret of `METHOD\\npath?query\\ntimestamp\\n` (empty body). See the bank walkthrough.',
  ),
  BankEventKeyId: apiKey('X-PSP-Key-ID', 'Your bank’s event key id, e.g. `ek_demo` of the demo bank.'),
  BankEventTimestamp: apiKey('X-PSP-Timestamp', 'RFC 3339 time with an offset, within ±300 s of the server.'),
  BankEventSignature: apiKey(
    'X-PSP-Signature',
    'Lowercase hex HMAC-SHA256 under the event key secret of `POST\\npath\\ntimestamp\\nraw body`. See the bank walkthrough.',
  ),
  PartnerBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from `POST /api/partner/v1/auth/token` (credentials in JWT mode).',
  },
  PartnerKeyId: apiKey('X-Partner-Key-ID', 'Partner credential key (credentials in HMAC mode).'),
  PartnerTimestamp: apiKey('X-Partner-Timestamp', 'RFC 3339 time with an offset, within ±300 s of the server.'),
  PartnerSignature: apiKey(
    'X-Partner-Signature',
    'Lowercase hex HMAC-SHA256 under the credential secret of `METHOD\\npath?query\\ntimestamp\\nraw body`. See the partner walkthrough.',
  ),
  UserBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'App access token from `POST /auth/verify-otp` or `POST /auth/refresh`, valid while its session is live.',
  },
  InternalApiKey: apiKey('X-Internal-API-Key', 'Shared key of trusted internal services (INTERNAL_API_KEY).'),
  MessagingSignature: apiKey(
    'X-Hub-Signature-256',
    '`sha256=<hex HMAC-SHA256 of the raw body under MESSAGING_WEBHOOK_SECRET>`, sent by the messaging provider.',
  ),
};

/** Who may call a route: the security requirements (alternatives) and any header the credential needs besides. */
export const CREDENTIALS = {
  bankLookup: { security: [{ BankLookupKeyId: [], BankLookupTimestamp: [], BankLookupSignature: [] }] },
  bankEvent: { security: [{ BankEventKeyId: [], BankEventTimestamp: [], BankEventSignature: [] }] },
  partner: { security: [{ PartnerBearer: [] }, { PartnerKeyId: [], PartnerTimestamp: [], PartnerSignature: [] }] },
  user: { security: [{ UserBearer: [] }] },
  internal: { security: [{ InternalApiKey: [] }] },
  /** The point-of-sale service surface: the internal key plus the merchant to act for. */
  posService: {
    security: [{ InternalApiKey: [] }],
    parameters: [
      {
        name: 'X-Merchant-ID',
        in: 'header',
        required: true,
        description: 'The merchant to act for (UUID); missing or not a UUID → 400 `bad_request`.',
        schema: { type: 'string', format: 'uuid' },
        example: DEMO.merchantId,
      },
    ],
  },
  messaging: { security: [{ MessagingSignature: [] }] },
} satisfies Record<string, { security: Record<string, string[]>[]; parameters?: Json[] }>;
export type CredentialKind = keyof typeof CREDENTIALS;

/** Marks an authenticator with the credential it checks, so the document can say so (every authenticator must). */
export function authenticatedBy<F extends Authenticate>(credential: CredentialKind, authenticate: F): F {
  return Object.assign(authenticate, { credential });
}

/** Per status: what it means and the codes that apply to every route answering it. */
const STATUSES: Record<number, { description: string; codes: string[]; message: string }> = {
  400: {
    description:
      'Invalid request: a parameter, query value or body failed validation. `error` names the first problem; `details` lists ' +
      'every failing field (JSON pointer, rule, message, and for an enum its allowed values).',
    codes: ['bad_request'],
    message: 'invalid body (amount): must be integer',
  },
  401: { description: 'Missing, malformed, wrong or expired credentials.', codes: ['unauthorized'], message: 'signature does not match' },
  403: { description: 'Authenticated, but not allowed to do this.', codes: ['forbidden'], message: 'forbidden' },
  404: { description: 'Not found, or not visible to the caller.', codes: ['not_found'], message: 'merchant not found' },
  409: { description: 'Conflicts with the current state.', codes: [], message: 'conflict' },
  413: { description: 'Request body larger than allowed.', codes: ['payload_too_large'], message: 'request body too large' },
  415: { description: 'Request body is not JSON.', codes: ['unsupported_media_type'], message: 'unsupported content type' },
  422: { description: 'Understood and stored, but not applied.', codes: [], message: 'not applied' },
  429: {
    description: 'Too many requests: wait `Retry-After` seconds.',
    codes: ['rate_limit_exceeded'],
    message: 'rate limit exceeded, retry in 42 s',
  },
  500: {
    description: 'Unexpected error; the request id (X-Request-ID) finds it in the logs.',
    codes: ['internal_error'],
    message: 'internal error',
  },
  502: { description: 'An upstream provider answered wrongly or not at all.', codes: [], message: 'upstream unreachable' },
  503: {
    description: 'A dependency is unavailable: retry after `Retry-After` seconds.',
    codes: ['service_unavailable'],
    message: 'a dependency is unavailable, retry later',
  },
};

const HEADERS: Record<string, Json> = {
  'X-Request-ID': { description: 'Id of this request in the logs (echoes a valid incoming X-Request-ID).', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per window for this credential.', schema: { type: 'integer', example: 60 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', example: 57 } },
  'X-RateLimit-Reset': { description: 'When the window ends, Unix seconds.', schema: { type: 'integer', example: 1795055460 } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 42 } },
  ETag: { description: 'Version of this answer, for If-None-Match.', schema: { type: 'string', example: '"3f2a9c1d"' } },
  'Cache-Control': { description: 'How long the answer may be reused.', schema: { type: 'string', example: 'public, max-age=300' } },
};

/** The headers of deprecated operations (lib/rest/deprecation.ts), in the document while some operation is deprecated. */
const DEPRECATION_HEADERS: Record<string, Json> = {
  Deprecation: {
    description: 'On a deprecated operation (RFC 9745): when it was deprecated, `@` and Unix seconds.',
    schema: { type: 'string', example: '@1796083200' },
  },
  Sunset: {
    description: 'On a deprecated operation (RFC 8594): after this time it may be removed.',
    schema: { type: 'string', example: 'Sat, 01 Jan 2028 00:00:00 GMT' },
  },
  Link: {
    description: 'On a deprecated operation: `rel="deprecation"`, the deprecation policy.',
    schema: { type: 'string', example: DEPRECATION_POLICY_LINK },
  },
};

/** Documented error codes found in a route's own text, e.g. "→ 409 `nmid_taken`". */
export function documentedErrorCodes(text: string): Map<number, Set<string>> {
  const found = new Map<number, Set<string>>();
  for (const match of text.matchAll(/\b([45]\d\d) `([a-z][a-z0-9_]*)`/g)) {
    const status = Number(match[1]);
    found.set(status, new Set([...(found.get(status) ?? []), match[2]]));
  }
  return found;
}

/** Every error status a route may answer and the codes each can carry. */
export function errorCodesOf(route: RestRoute<any>, declaredStatuses: number[]): Map<number, string[]> {
  const codes = documentedErrorCodes(`${route.summary}\n${route.description ?? ''}`);
  for (const [status, list] of Object.entries(route.errors ?? {})) {
    codes.set(Number(status), new Set([...(codes.get(Number(status)) ?? []), ...(list as string[])]));
  }
  const statuses = new Set([...declaredStatuses.filter((s) => s >= 400), ...codes.keys(), 500, 503]);
  const hasInput = !!(route.schema.params || route.schema.querystring || route.schema.body);
  if (hasInput) statuses.add(400);
  if (route.schema.body) statuses.add(413).add(415);
  if (route.authenticate) statuses.add(401);
  if (route.rateLimit) statuses.add(429);
  const result = new Map<number, string[]>();
  for (const status of [...statuses].sort()) {
    const own = [...(codes.get(status) ?? [])];
    const always = STATUSES[status]?.codes ?? [];
    // A domain status (409, 422) names its reasons; generic ones also keep their generic code.
    const list = [...new Set([...always, ...own])];
    result.set(status, list.length > 0 ? list : [status === 409 ? 'conflict' : 'error']);
  }
  return result;
}

/** Where the APIs answer: this server (for the reference page's "Try it out") and `npm start`'s default port. */
export function documentServers(config: Config): { url: string; description: string }[] {
  const local = `http://localhost:${config.ports.rest}`;
  return [
    { url: local, description: 'Local development (`npm start`, REST_PORT)' },
    ...(config.ports.rest === 8080 ? [] : [{ url: 'http://localhost:8080', description: 'Local development on the default port' }]),
  ];
}

export interface DocumentOptions {
  adapters: RestAdapter[];
  /** Markdown of the document's introduction (the walkthroughs link from here). */
  description: string;
  servers: { url: string; description: string }[];
}

/** The `openapi` option of @fastify/swagger, before the routes are known. */
export function documentBase(options: DocumentOptions): Json {
  const tags = options.adapters.flatMap((adapter) => adapter.tags.map(({ name, description }) => ({ name, description })));
  return {
    openapi: '3.1.0',
    info: {
      title: 'QRIS merchant platform REST APIs',
      version: '1.0.0',
      description: options.description,
      contact: { name: 'Platform team', email: 'platform@example.com' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: options.servers,
    tags,
    components: { securitySchemes: SECURITY_SCHEMES },
  };
}

/**
 * Adds to the generated document what the route declarations imply: security per operation, parameters required only
 * without a default, per-status descriptions, error codes (as an enum and one example each), rate-limit, retry and
 * cache headers, and the routes' examples.
 */
export function finishDocument(document: Json, adapters: RestAdapter[]): Json {
  const routes = new Map(adapters.flatMap((adapter) => adapter.routes.map((route) => [route.operationId, route] as const)));
  const adapterOf = new Map(adapters.flatMap((adapter) => adapter.routes.map((route) => [route.operationId, adapter] as const)));
  const shared = new Map(adapters.flatMap((adapter) => adapter.schemas ?? []).map((schema) => [schema.$id as string, schema]));
  document.components ??= {};
  const anyDeprecated = adapters.some((adapter) => adapter.routes.some((route) => route.deprecated));
  document.components.headers = anyDeprecated ? { ...HEADERS, ...DEPRECATION_HEADERS } : HEADERS;
  document.components.securitySchemes = SECURITY_SCHEMES;
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      const route = routes.get(operation.operationId);
      if (!route) throw new Error(`${method.toUpperCase()} ${path}: no route declares operationId ${operation.operationId}`);
      // An answer's example shows its instants as the API writes them (its time rule, lib/time/api-time.ts).
      const times = adapterOf.get(operation.operationId)!.times(undefined);
      finishOperation(operation, route, (example, status) =>
        writeTimes(example, route.schema.response[status], times, (id) => shared.get(id)),
      );
    }
  }
  return document;
}

function finishOperation(operation: Json, route: RestRoute<any>, withTimes: (example: unknown, status: number) => unknown): void {
  const credential = route.authenticate ? requireCredential(route) : undefined;
  if (route.deprecated) {
    operation.deprecated = true;
    const { since, sunset, replacement } = route.deprecated;
    operation.description = [`**Deprecated** since ${since}; may be removed after ${sunset}. ${replacement}`, operation.description]
      .filter(Boolean)
      .join('\n\n');
  }
  operation.security = credential ? CREDENTIALS[credential].security : [];
  const parameters: Json[] = operation.parameters ?? [];
  for (const parameter of parameters) {
    // Validation fills defaults in, so a parameter with a default is not required of the caller.
    if (parameter.schema && 'default' in parameter.schema) parameter.required = false;
    const part = parameter.in === 'path' ? 'params' : parameter.in === 'query' ? 'query' : 'headers';
    const example = (route.examples?.[part] as Json | undefined)?.[parameter.name];
    if (example !== undefined) parameter.example = example;
  }
  const needs = (credential ? CREDENTIALS[credential] : {}) as { parameters?: Json[] };
  if (needs.parameters) parameters.push(...needs.parameters.map((parameter) => ({ ...parameter })));
  if (route.cache) {
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An ETag from an earlier answer: 304 without a body while it still matches.',
      schema: { type: 'string' },
    });
  }
  if (parameters.length > 0) operation.parameters = parameters;
  if (operation.requestBody && route.examples?.body !== undefined) {
    operation.requestBody.content['application/json'].example = route.examples.body;
  }

  const responses: Json = operation.responses ?? {};
  const statuses = Object.keys(responses).map(Number);
  const limited = !!route.rateLimit;
  for (const [status, codes] of errorCodesOf(route, statuses)) {
    const existing = responses[status];
    const isErrorBody = !existing || existing.content?.['application/json']?.schema?.$ref === '#/components/schemas/ErrorBody';
    const response: Json = existing ?? {};
    response.description = STATUSES[status]?.description ?? `Error ${status}.`;
    if (isErrorBody) {
      response.content = {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/ErrorBody' }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }],
          },
          examples: Object.fromEntries(
            codes.map((code) => [code, { summary: code, value: errorExample(status, code, route.examples?.errors?.[code]) }]),
          ),
        },
      };
    } else {
      putExample(response.content['application/json'], route, status, withTimes);
      response.description = `${response.description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`;
    }
    response.headers = {
      ...requestIdHeader(),
      ...(route.deprecated ? deprecationHeaders() : {}),
      ...(limited && status !== 401 && status !== 400 ? rateLimitHeaders() : {}),
      ...(status === 429 || status === 503 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
    };
    responses[status] = response;
  }
  for (const [statusText, response] of Object.entries<Json>(responses)) {
    const status = Number(statusText);
    if (status >= 400) continue;
    if (!response.description || response.description === 'Default Response') response.description = successDescription(status);
    const content = response.content?.['application/json'];
    if (content) putExample(content, route, status, withTimes);
    response.headers = {
      ...requestIdHeader(),
      ...(route.deprecated ? deprecationHeaders() : {}),
      ...(limited ? rateLimitHeaders() : {}),
      ...(route.cache
        ? { ETag: { $ref: '#/components/headers/ETag' }, 'Cache-Control': { $ref: '#/components/headers/Cache-Control' } }
        : {}),
    };
  }
  if (route.cache) {
    responses[304] = {
      description: 'Not modified: the If-None-Match ETag still matches.',
      headers: { ...requestIdHeader(), ETag: { $ref: '#/components/headers/ETag' } },
    };
  }
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/**
 * Every group of the reference says what it is for and whose reference shows it: a route's tags are its adapter's
 * (rest-adapters/api-tags.ts); throws otherwise, so the app does not start.
 */
export function requireTags(route: RestRoute<any>, adapter: RestAdapter): void {
  const unknown = route.tags.filter((tag) => !adapter.tags.some((defined) => defined.name === tag));
  if (unknown.length > 0 || route.tags.length === 0)
    throw new Error(`${route.method} ${route.url}: tag ${unknown.join(', ') || '(none)'} is not defined by its adapter`);
}

/** The credential an authenticated route's authenticator checks; throws when it was not declared with `authenticatedBy`. */
export function requireCredential(route: RestRoute<any>): CredentialKind {
  const credential = (route.authenticate as { credential?: CredentialKind } | undefined)?.credential;
  if (!credential) throw new Error(`${route.method} ${route.url}: its authenticator does not say its credential (authenticatedBy)`);
  return credential;
}

/**
 * A response's example: its named ones (`examples`, e.g. one per partner contract, each written in its shape's rule)
 * when the route gives them, else its one `example`, its instants written by the API's time rule.
 */
function putExample(content: Json, route: RestRoute<any>, status: number, withTimes: (example: unknown, status: number) => unknown): void {
  const named = route.examples?.namedResponses?.[status];
  const example = route.examples?.responses?.[status];
  if (named) content.examples = named;
  else if (example !== undefined) content.example = withTimes(example, status);
}

function successDescription(status: number): string {
  return status === 201 ? 'Created.' : status === 202 ? 'Accepted.' : status === 204 ? 'Done; no body.' : 'Success.';
}

function errorExample(status: number, code: string, message?: string): Json {
  const error = message ?? (STATUSES[status]?.codes.includes(code) ? STATUSES[status].message : code.replaceAll('_', ' '));
  if (status === 429 || status === 503) return { error, code, retry_after_secs: status === 429 ? 42 : 5 };
  // A 400 lists every failing field; `error` names the first (lib/rest/validation-details.ts).
  if (status === 400 && code === 'bad_request' && message === undefined) return { error, code, details: VALIDATION_DETAILS_EXAMPLE };
  return { error, code };
}

const VALIDATION_DETAILS_EXAMPLE = [
  { pointer: '/amount', rule: 'type', message: 'must be integer' },
  { pointer: '/outlet_id', rule: 'format', message: 'must match format "uuid"' },
  { pointer: '/method', rule: 'enum', message: 'must be one of: "messaging", "whatsapp"', allowed: ['messaging', 'whatsapp'] },
];

const requestIdHeader = () => ({ 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } });
const deprecationHeaders = () => ({
  Deprecation: { $ref: '#/components/headers/Deprecation' },
  Sunset: { $ref: '#/components/headers/Sunset' },
  Link: { $ref: '#/components/headers/Link' },
});
const rateLimitHeaders = () => ({
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
});

function apiKey(name: string, description: string): Json {
  return { type: 'apiKey', in: 'header', name, description };
}
