import SerializerSelector, { type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import swagger from '@fastify/swagger';
import { type TSchema, Type } from '@sinclair/typebox';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type HTTPMethods } from 'fastify';
import type { Principal } from '../auth/principal';
import type { Config } from '../config/config';
import { refuseClientErrors, refuseWhileClosing } from '../http/client-errors';
import { metricsPlugin } from '../http/metrics';
import { type ReadinessCheck, registerProbes } from '../http/probes';
import { MAX_JSON_DEPTH, REST_BODY_LIMIT } from '../http/request-limits';
import { jsonTooDeep, storableTime, unstorableText } from '../http/storable-input';
import { enforceBodyDeadline, serverTimeoutOptions } from '../http/server-timeouts';
import { subscribeCacheInvalidation } from '../events/cache-invalidation';
import { type LogStream, fastifyLoggingOptions } from '../logging/logger';
import { apiDescription } from './api-pages';
import { checkDeprecation, deprecationHeaders } from './deprecation';
import { ErrorBody, ErrorDetail, HttpError } from './error-body';
import { serviceUnavailable } from './error-map';
import { NO_OPERATIONS, type OperationExecutor } from './operation-executor';
import { documentBase, documentServers, finishDocument, requireCredential, requireTags } from './openapi';
import { rateLimitRouteConfig, registerRateLimiting } from './rate-limit';
import { registerReferencePages } from './reference-pages';
import { ResponseCache } from './response-cache';
import { writeTimes } from './response-times';
import {
  MAX_ERROR_DETAILS,
  VALIDATED_PARTS,
  type ValidatedPart,
  detailsOf,
  failFastThenCollect,
  validationMessage,
} from './validation-details';
import type { CachedRouteContext, RestAdapter, RestRoute, RouteRuntime } from './route';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for, set by the route's `authenticate`. */
    acting?: Principal;
  }
}

export interface RestAppOptions {
  config: Config;
  adapters: RestAdapter[];
  /**
   * How the adapters run their operations: a function that makes the executor once the app has its metrics registry
   * and logger (rest-adapters/gateway.ts); the app closes it.
   */
  operations: (app: FastifyInstance) => Promise<OperationExecutor>;
  /** What /readyz checks besides draining (rest-adapters/main.ts: the subgraphs' databases when they run in-process). */
  readiness?: ReadinessCheck[];
  logStream?: LogStream;
}

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The REST process: every adapter's routes on one fastify server, with the shared error body, request
 * ids, OpenAPI 3.1 at /openapi.json, a reference page at /docs, /metrics, /livez and /readyz (lib/http/probes.ts), 404
 * and 405 handling.
 */
export async function createRestApp({ config, adapters, operations, readiness, logStream }: RestAppOptions): Promise<FastifyInstance> {
  const app = newServer(config, logStream);
  registerProbes(app, readiness);
  // Sent here, not thrown: a route registered before the error handler (the probes, /metrics) would answer a thrown
  // error with fastify's own body and log it as an error (a kubelet probe during every drain).
  refuseWhileClosing(app, (reply) => {
    sendError(reply, serviceUnavailable('the service is shutting down, retry later'));
    return reply;
  });
  parseAndValidateInput(app);
  await registerDocumentation(app, adapters, config);
  await app.register(metricsPlugin, { service: 'rest', documentedRoute: true });
  const client = await operations(app);
  // Before any route: routes added earlier would not be limited.
  await registerRateLimiting(app, { redisUrl: config.redisUrl });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  addRequestHooks(app);
  registerRoutes(app, adapters, client, config);
  // Background work runs operations: an app built only for its documentation (NO_OPERATIONS) has none to start.
  if (client !== NO_OPERATIONS) await startAdapters(app, adapters, client, config);
  // Credentials, sessions and per-principal responses cached here are dropped when they change (any copy's change).
  const stopInvalidation = await subscribeCacheInvalidation(config.redisUrl, app.log);
  app.addHook('onClose', async () => {
    await stopInvalidation();
    await client.close();
  });
  return app;
}

function newServer(config: Config, logStream: LogStream | undefined): FastifyInstance {
  const app = Fastify({
    ...fastifyLoggingOptions(config, 'rest', logStream),
    bodyLimit: REST_BODY_LIMIT,
    schemaController: { compilersFactory: { buildSerializer: serializerPerSchema() } },
    // Behind a load balancer the client is X-Forwarded-For's entry that many hops back (TRUST_PROXY_HOPS).
    trustProxy: config.http.trustProxyHops > 0 ? (_address: string, hop: number) => hop < config.http.trustProxyHops : false,
    ...serverTimeoutOptions(config),
    // Answers fastify would give in its own body carry the documented one (decision 0006): while closing (below),
    // and for requests Node refuses before fastify sees them (headers too large, a malformed request, a timeout).
    return503OnClosing: false,
    clientErrorHandler: refuseClientErrors(({ status, code, message }) => new HttpError(status, code, message).toBody()),
  });
  enforceBodyDeadline(app, config);
  return app;
}

/**
 * fastify's response serializers (fast-json-stringify), each distinct schema compiled once per process: fastify asks
 * for one per route, status and encapsulation context (1,113 for this app, of 65 distinct schemas, `{"$ref":"ErrorBody"}`
 * above all), and each compile walks every shared schema: about 1 s of CPU at every start. A further REST app in the
 * process (a test's stacks) compiles nothing again (docs/benchmarks.md, "The test suite").
 */
const SERIALIZERS = new Map<string, Serializer>();
function serializerPerSchema(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const shared = JSON.stringify(externalSchemas ?? {});
    return (route) => {
      const key = `${shared}\n${JSON.stringify(route.schema)}`;
      let serializer = SERIALIZERS.get(key);
      if (!serializer) SERIALIZERS.set(key, (serializer = compile(route)));
      return serializer;
    };
  };
}

function parseAndValidateInput(app: FastifyInstance): void {
  // Query strings and path parameters arrive as text and are coerced to their schema types; bodies are JSON
  // and must already have the right types ("100" is not an amount): two validators, one per kind of input.
  // Each fails fast, then collects every problem of input that failed (lib/rest/validation-details.ts): a 400 lists
  // them all, in every part of the request (fastify stops at the first part that fails; the error handler checks the rest).
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const { fast, collecting, compiled } = VALIDATION[httpPart === 'body' ? 'strict' : 'coercing'];
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = failFastThenCollect(fast.compile(schema), () => collecting.compile(schema))));
    return validate;
  });

  // Signed requests are verified over the body exactly as received; fastify's own parser (with its
  // prototype-poisoning protection) still parses it, unless it nests deeper than MAX_JSON_DEPTH.
  // Every body is JSON: another content type (fastify would parse text/plain) is 415 before authentication looks
  // at a body it would not verify.
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    if (jsonTooDeep(body as string)) {
      done(new HttpError(400, 'bad_request', `invalid request: JSON must not nest deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    void parseJson(req, body as string, done); // answers through `done`
  });
}

/** The shared schemas, the OpenAPI document and the reference pages (/docs, /docs/<audience>, /openapi/<audience>.json). */
async function registerDocumentation(app: FastifyInstance, adapters: RestAdapter[], config: Config): Promise<void> {
  app.addSchema(ErrorDetail);
  app.addSchema(ErrorBody);
  for (const schema of adapters.flatMap((adapter) => adapter.schemas ?? [])) app.addSchema(schema);
  await app.register(swagger, {
    openapi: documentBase({ adapters, description: apiDescription(), servers: documentServers(config) }),
    refResolver: { buildLocalReference: (json, _base, _fragment, index) => (json.$id as string) ?? `def-${index}` },
    transformObject: (documentObject) => finishDocument('openapiObject' in documentObject ? documentObject.openapiObject : {}, adapters),
  });
  await registerReferencePages(app, adapters);
}

/** The request id on every answer, unstorable text refused, the shared error body for errors and unknown routes. */
function addRequestHooks(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    return payload;
  });
  // PostgreSQL cannot store NUL (U+0000) or a lone UTF-16 surrogate: such a value would fail in the database as a 5xx.
  // No API field is binary, so either in a path parameter, query value or body string (keys included) is a 400
  // before anything runs.
  app.addHook('preHandler', async (req) => {
    const problem = unstorableText(req.params) ?? unstorableText(req.query) ?? unstorableText(req.body);
    if (problem) throw new HttpError(400, 'bad_request', `invalid request: ${problem}`);
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((req, reply) => {
    sendError(reply, new HttpError(404, 'not_found', `no route for ${req.method} ${req.url.split('?')[0]}`));
  });
}

/** Every adapter's routes, and a 405 with Allow for a known path's other methods (not 404). */
function registerRoutes(app: FastifyInstance, adapters: RestAdapter[], client: OperationExecutor, config: Config): void {
  const cache = new ResponseCache(config.referenceCacheTtlSecs);
  const methodsByUrl = new Map<string, Set<string>>();
  for (const adapter of adapters) {
    for (const route of adapter.routes) {
      registerRoute(app, route, adapter, client, cache, config);
      methodsByUrl.set(route.url, new Set([...(methodsByUrl.get(route.url) ?? []), route.method]));
    }
  }
  for (const [url, methods] of methodsByUrl) {
    const others = METHODS.filter((m) => !methods.has(m) && !(m === 'GET' && methods.has('HEAD')));
    const allow = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])].join(', ');
    app.route({
      method: others,
      url,
      schema: { hide: true },
      handler: (req, reply) => {
        reply.header('allow', allow);
        sendError(reply, new HttpError(405, 'method_not_allowed', `${req.method} is not supported for ${url}`));
      },
    });
  }
}

/** Each adapter's background work, with an executor whose request ids name the adapter. */
async function startAdapters(app: FastifyInstance, adapters: RestAdapter[], client: OperationExecutor, config: Config): Promise<void> {
  let background = 0;
  for (const adapter of adapters) {
    await adapter.start?.(app, {
      config,
      execute: (operation, variables, acting) =>
        client.execute(operation, variables, {
          requestId: `${adapter.name}-background-${(background += 1)}`,
          acting,
          adapter: adapter.name,
        }),
    });
  }
}

function registerRoute(
  app: FastifyInstance,
  route: RestRoute<any>,
  adapter: RestAdapter,
  client: OperationExecutor,
  referenceCache: ResponseCache,
  config: Config,
): void {
  const runtimeFor = (req: FastifyRequest): RouteRuntime => ({
    config,
    execute: (operation, variables, options) =>
      client.execute(operation, variables, {
        requestId: req.id,
        acting: req.acting,
        timeoutMs: route.timeoutMs,
        adapter: adapter.name,
        ...options,
      }),
  });
  const privateCache = route.cache === 'per-principal' ? new ResponseCache(route.cacheSecs, 50_000, 'private') : undefined;
  if (privateCache) {
    // Bank lookups carry the merchant's status: a change drops them on every copy (lib/events/cache-invalidation.ts).
    const off = privateCache.clearOn('merchant');
    app.addHook('onClose', async () => off());
  }
  const authenticate = route.authenticate;
  if (authenticate) requireCredential(route); // the OpenAPI document names every route's credential
  // Every instant of an answer as the adapter's time rule writes it, from the schema the body is serialised with.
  const resolveSchema = (id: string) => app.getSchema(id) as TSchema | undefined;
  const withTimes = (req: FastifyRequest, body: unknown, schema: TSchema | undefined) =>
    writeTimes(body, schema, adapter.times(req.acting), resolveSchema);
  const deprecated = route.deprecated;
  if (deprecated) checkDeprecation(`${route.method} ${route.url}`, deprecated);
  requireTags(route, adapter); // and its group, with what the group is for
  app.route({
    method: route.method,
    url: route.url,
    ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
    ...rateLimitRouteConfig(route.rateLimit),
    schema: {
      summary: route.summary,
      description: route.description,
      tags: route.tags.length > 0 ? route.tags : [adapter.name],
      operationId: route.operationId,
      ...(deprecated ? { deprecated: true } : {}),
      ...route.schema,
      // Every route with a body may answer 413 payload_too_large (its bodyLimit, else REST_BODY_LIMIT).
      response: route.schema.body ? { 413: Type.Ref(ErrorBody), ...route.schema.response } : route.schema.response,
    },
    // Every answer of a deprecated operation says so, errors included (docs/api/versioning.md).
    onRequest: deprecated
      ? async (_req, reply) => {
          reply.headers(deprecationHeaders(deprecated));
        }
      : undefined,
    // Authentication runs before validation: a stranger learns nothing from validation errors.
    preValidation: authenticate
      ? async (req) => {
          req.acting = await authenticate(req, runtimeFor(req));
        }
      : undefined,
    handler: async (req, reply) => {
      const input = { params: req.params, query: req.query, body: req.body } as never;
      const context: CachedRouteContext = { ...runtimeFor(req), principal: req.acting, request: req };
      if (route.cache === 'public' || route.cache === 'per-principal') {
        const cached = route;
        const run = async (): Promise<unknown> => withTimes(req, await cached.run(input, context), cached.schema.response[200]);
        return cached.cache === 'public'
          ? serveCached(run, context, reply, referenceCache, '', route.url)
          : serveCached(run, context, reply, privateCache!, JSON.stringify(req.acting ?? null), route.url);
      }
      let serializedAs: TSchema | undefined;
      const body = await route.run(input, {
        ...context,
        status: (code) => void reply.code(code),
        header: (name, value) => void reply.header(name, value),
        // Compiled once per schema and route (fastify caches it), like the route's own response serializers.
        serializeAs: (schema) => {
          serializedAs = schema;
          // A serializer set on the reply leaves the content type unset (fastify sets it only for its own): JSON.
          reply.serializer(reply.compileSerializationSchema(schema)).type('application/json; charset=utf-8');
        },
        takeOver: () => {
          reply.hijack();
          reply.raw.setHeader('x-request-id', req.id);
          return reply.raw;
        },
      });
      return withTimes(req, body, serializedAs ?? route.schema.response[reply.statusCode]);
    },
  });
}

/**
 * Cached routes: serve from the cache when fresh, answer 304 to a matching If-None-Match. The key is the
 * route, the validated params and query, and (for per-principal caches) who acts.
 */
async function serveCached(
  run: () => Promise<unknown>,
  context: CachedRouteContext,
  reply: FastifyReply,
  cache: ResponseCache,
  scope: string,
  url: string,
): Promise<unknown> {
  const req = context.request;
  const key = `${scope}|${url}|${JSON.stringify(req.params ?? {})}|${JSON.stringify(req.query ?? {})}`;
  // The 200 answer's serializer, not this reply's: a refresh runs after the reply went out, perhaps as a 304.
  const body = async () => reply.getSerializationFunction('200')!((await run()) as Record<string, unknown>);
  const entry = await cache.fetch(key, body);
  reply.header('etag', entry.etag).header('cache-control', cache.cacheControl);
  if (req.headers['if-none-match'] === entry.etag) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.body);
}

/**
 * The process's validators, coercing for query strings and path parameters, strict for bodies, and what each compiled
 * per schema: a further REST app in the process (a test's stacks) compiles nothing again, and the error handler checks
 * the parts of a request fastify did not reach with them.
 */
const VALIDATION = {
  coercing: { fast: validator(true, false), collecting: validator(true, true), compiled: new WeakMap<object, ValidateFunction>() },
  strict: { fast: validator(false, false), collecting: validator(false, true), compiled: new WeakMap<object, ValidateFunction>() },
};

/**
 * The 400 of a request that failed validation: `error` names its first problem (as always), `details` lists every
 * problem of every part, in the order fastify validates them.
 */
function validationError(error: FastifyError, req: FastifyRequest): HttpError {
  const failed = (error.validationContext ?? 'body') as ValidatedPart;
  const details: ErrorDetail[] = detailsOf(failed, error.validation ?? []);
  const schemas = (req.routeOptions.schema ?? {}) as Partial<Record<ValidatedPart, object>>;
  const input: Record<ValidatedPart, unknown> = { params: req.params, body: req.body, querystring: req.query, headers: req.headers };
  for (const part of VALIDATED_PARTS.slice(VALIDATED_PARTS.indexOf(failed) + 1)) {
    const schema = schemas[part];
    const validate = schema ? VALIDATION[part === 'body' ? 'strict' : 'coercing'].compiled.get(schema) : undefined;
    if (validate && !validate(input[part] ?? null)) details.push(...detailsOf(part, validate.errors ?? []));
  }
  return new HttpError(400, 'bad_request', validationMessage(failed, details[0]), undefined, details.slice(0, MAX_ERROR_DETAILS));
}

function errorHandler(error: FastifyError | HttpError, req: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof HttpError) {
    if (error.status >= 500) req.log.warn({ code: error.code }, error.message);
    return sendError(reply, error);
  }
  if (error.validation) return sendError(reply, validationError(error, req));
  const status = error.statusCode ?? 500;
  if (status === 413) return sendError(reply, new HttpError(413, 'payload_too_large', 'request body too large'));
  if (status === 415) {
    return sendError(reply, new HttpError(415, 'unsupported_media_type', 'unsupported content type: send Content-Type: application/json'));
  }
  if (status >= 400 && status < 500) return sendError(reply, new HttpError(400, 'bad_request', error.message));
  req.log.error({ err: error }, 'unhandled error');
  sendError(reply, new HttpError(500, 'internal_error', 'internal error'));
}

/**
 * The shared validator: `collecting` lists every error (allErrors) and keeps each error's schema (verbose: a union of
 * constants is reported as one enum with its values); the fail-fast one stops at the first.
 */
function validator(coerce: boolean, collecting: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: true,
    useDefaults: true,
    allErrors: collecting,
    verbose: collecting,
    strict: false,
  });
  addFormats(ajv);
  // Dates and date-times PostgreSQL and JavaScript both hold: years 0001 to 9999 (RFC 3339 allows 0000).
  for (const name of ['date', 'date-time'] as const) {
    const { validate, compare } = fullFormats[name] as { validate: (text: string) => boolean; compare: (a: string, b: string) => number };
    ajv.addFormat(name, { type: 'string', validate: (text: string) => validate(text) && storableTime(text), compare });
  }
  return ajv;
}

export function sendError(reply: FastifyReply, error: HttpError): void {
  if (error.retryAfterSecs !== undefined) reply.header('retry-after', String(error.retryAfterSecs));
  // The error body is not in every route's response schema (e.g. 405); serialise it directly.
  reply.code(error.status).type('application/json; charset=utf-8').send(JSON.stringify(error.toBody()));
}
