import type { RouteDeprecation } from './deprecation';
import type { Static, TSchema } from '@sinclair/typebox';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { Principal } from '../auth/principal';
import type { Config } from '../config/config';
import type { Audience } from './audiences';
import type { ExecuteOptions } from './operation-executor';
import type { FixedOperationDocument } from './operation';
import type { RateLimit } from './rate-limit';
import type { TimeRule } from '../time/api-time';

export interface RouteSchemas {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** One schema per documented status; the 200 schema is also what keeps unlisted fields from leaving. */
  response: Record<number, TSchema>;
}

/** The validated request: path parameters, query and body, typed by the route's schemas. */
export type RouteInput<S extends RouteSchemas> = {
  params: S['params'] extends TSchema ? Static<S['params']> : undefined;
  query: S['querystring'] extends TSchema ? Static<S['querystring']> : undefined;
  body: S['body'] extends TSchema ? Static<S['body']> : undefined;
};

/** A body the route documents (for success, or for a status the route sets itself, e.g. a health check's 503). */
export type RouteReply<S extends RouteSchemas> = {
  [K in keyof S['response']]: S['response'][K] extends TSchema ? Static<S['response'][K]> : never;
}[keyof S['response']];

/**
 * Runs a fixed operation against the gateway, as the request's principal unless `options.acting` says otherwise.
 * Result and variables are the operation's generated types (rest-adapters/generated/operations.ts).
 */
export type Execute = <TResult, TVariables>(
  operation: FixedOperationDocument<TResult, TVariables>,
  variables: NoInfer<TVariables>,
  options?: Partial<ExecuteOptions>,
) => Promise<TResult>;

/** The gateway and configuration, bound to the current request: what authenticators and shared helpers get. */
export interface RouteRuntime {
  /** The REST process's validated configuration (secrets included: never log it). */
  config: Config;
  execute: Execute;
}

/** What a cached route's `run` gets: its answer is stored as a body, so it cannot shape status or headers. */
export interface CachedRouteContext extends RouteRuntime {
  /** Who the request acts for, as `authenticate` returned it; undefined on a public route. */
  principal: Principal | undefined;
  /** The request: client address, logger, what authentication recorded on it (e.g. the partner credential). */
  request: FastifyRequest;
}

/** What a route's `run` gets. */
export interface RouteContext extends CachedRouteContext {
  /** The answer's status when not 200 (e.g. 503 for a health check, 201 for a creation). */
  status: (code: number) => void;
  /** A header of the answer (e.g. content-type for a body that is not JSON). */
  header: (name: string, value: string) => void;
  /**
   * Serialises the answer with `schema`, the branch of the route's `oneOf` response schema the body is (e.g. the
   * caller's partner contract). Without it the union's serializer validates the body against each branch to choose
   * one: every uuid and date-time format of a 500-row list, about a seventh of the REST process's CPU on it
   * (docs/decisions/0018-transaction-lists-and-paging.md).
   */
  serializeAs: (schema: TSchema) => void;
  /**
   * Takes the answer over: the route writes status, headers and body on the raw response itself (a stream, e.g.
   * Server-Sent Events, lib/events/sse.ts) and what `run` returns is ignored. `X-Request-ID` is already set.
   */
  takeOver: () => ServerResponse;
}

/**
 * Verifies the caller (signature, token, key) before validation and returns who the route acts for; it throws
 * an HttpError (401, 403) to refuse. Without it the route is public and the adapter acts as itself.
 */
export type Authenticate = ((req: FastifyRequest, runtime: RouteRuntime) => Promise<Principal>) & {
  /** The credential it checks, for the OpenAPI document (set with `authenticatedBy`, lib/rest/openapi.ts). */
  credential?: string;
};

interface RouteBase<S extends RouteSchemas> {
  method: HTTPMethods;
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  /** OpenAPI operationId, unique across the adapters (usually the name of the operation the route runs). */
  operationId: string;
  schema: S;
  /** Requests allowed per credential (req.rateLimitKey, else the client address) in a window. */
  rateLimit?: RateLimit;
  /** Largest body in bytes when not REST_BODY_LIMIT (lib/http/request-limits.ts); larger is 413 payload_too_large. */
  bodyLimit?: number;
  /** Deadline of each gateway call when longer than GATEWAY_TIMEOUT_MS (lib/http/request-limits.ts). */
  timeoutMs?: number;
  /**
   * Error codes the route answers beyond those its text names ("→ 409 `nmid_taken`") and those every route of its
   * kind carries (lib/rest/openapi.ts); documentation only.
   */
  errors?: Partial<Record<number, string[]>>;
  /** Examples for the OpenAPI document, from the demo data; checked against the schemas by test/contracts/openapi.spec.ts. */
  examples?: RouteExamples<S>;
  /** A deprecated operation: works until its sunset, answered with Deprecation, Sunset and Link (lib/rest/deprecation.ts). */
  deprecated?: RouteDeprecation;
}

/** A body the route documents for a status, typed by that status's schema. */
type ResponseBody<S extends RouteSchemas, K extends keyof S['response']> = S['response'][K] extends TSchema
  ? Static<S['response'][K]>
  : never;

/** One of several examples of a response: a short summary (shown as the example's name) and the body. */
export interface NamedExample<T> {
  summary: string;
  value: T;
}

/**
 * A route's examples: request parts, responses by status and, per error code, a message. A response whose shape
 * depends on the caller (a partner's contract A or B, a login that opens a session or asks for a code) gives
 * `namedResponses` instead: one example per shape, by name (OpenAPI `examples`; a status named there takes them
 * instead of its `responses` example).
 */
export interface RouteExamples<S extends RouteSchemas> {
  params?: Partial<RouteInput<S>['params']>;
  query?: Partial<RouteInput<S>['query']>;
  headers?: Record<string, string>;
  body?: RouteInput<S>['body'];
  responses?: { [K in keyof S['response']]?: ResponseBody<S, K> };
  namedResponses?: { [K in keyof S['response']]?: Record<string, NamedExample<ResponseBody<S, K>>> };
  errors?: Record<string, string>;
}

/** A route that answers per request: it may set its status and headers. */
export interface UncachedRoute<S extends RouteSchemas> extends RouteBase<S> {
  authenticate?: Authenticate;
  cache?: undefined;
  run: (input: RouteInput<S>, ctx: RouteContext) => Promise<RouteReply<S>>;
}

/** Public, slowly changing data: ETag and Cache-Control, and an in-process cache when enabled. Never authenticated. */
export interface PublicCachedRoute<S extends RouteSchemas> extends RouteBase<S> {
  authenticate?: undefined;
  cache: 'public';
  run: (input: RouteInput<S>, ctx: CachedRouteContext) => Promise<RouteReply<S>>;
}

/** Answers kept per acting principal for `cacheSecs` (e.g. bank lookups by NMID, psp-api.md §8): authenticated only. */
export interface PrincipalCachedRoute<S extends RouteSchemas> extends RouteBase<S> {
  authenticate: Authenticate;
  cache: 'per-principal';
  cacheSecs: number;
  run: (input: RouteInput<S>, ctx: CachedRouteContext) => Promise<RouteReply<S>>;
}

/**
 * A documented REST route: what it is (method, url, docs, schemas), who may call it (authenticate, rate limit),
 * whether its answers are cached, and ONE function that runs it — typically one fixed GraphQL operation through
 * `ctx.execute` and a mapper. Options that do not combine (a public cache with authentication, a cached answer
 * with its own status) cannot be declared together.
 */
export type RestRoute<S extends RouteSchemas = RouteSchemas> = UncachedRoute<S> | PublicCachedRoute<S> | PrincipalCachedRoute<S>;

/** One overload per kind of route, so that `run` is typed by the kind the definition declares. */
export function defineRoute<S extends RouteSchemas>(route: UncachedRoute<S>): RestRoute<S>;
export function defineRoute<S extends RouteSchemas>(route: PublicCachedRoute<S>): RestRoute<S>;
export function defineRoute<S extends RouteSchemas>(route: PrincipalCachedRoute<S>): RestRoute<S>;
export function defineRoute<S extends RouteSchemas>(route: RestRoute<S>): RestRoute<S> {
  return route;
}

/** What an adapter's background work gets: the configuration and the gateway, outside any request. */
export interface BackgroundRuntime {
  config: Config;
  /** Runs a fixed operation as `acting` (omitted: the adapter as itself), with a request id of its own. */
  execute: <TResult, TVariables>(
    operation: FixedOperationDocument<TResult, TVariables>,
    variables: NoInfer<TVariables>,
    acting?: Principal,
  ) => Promise<TResult>;
}

/** A REST adapter is a set of routes with the OpenAPI tags that describe them. */
/** A group of operations in the reference: what it is for, and whose reference shows it (lib/rest/audiences.ts). */
export interface ApiTag {
  name: string;
  description: string;
  audience: Audience;
}

export interface RestAdapter {
  name: string;
  description: string;
  /** Every tag its routes use, in the reference's order (rest-adapters/api-tags.ts); a route's tag must be one of them. */
  tags: readonly ApiTag[];
  routes: RestRoute<any>[];
  /**
   * How this API writes instants (lib/time/api-time.ts), by who calls (a partner's contract): every `date-time`
   * field of every answer of its routes is written by it, in one place (lib/rest/response-times.ts).
   */
  times: (principal: Principal | undefined) => TimeRule;
  /** Shared schemas with an $id, referenced by the routes' schemas (Type.Ref). */
  schemas?: TSchema[];
  /**
   * Background work of the process (e.g. the live payment feed, docs/decisions/0202-live-payment-events.md), started
   * before the app is ready; it decorates `app` for its routes and stops in the app's close hooks.
   */
  start?: (app: FastifyInstance, runtime: BackgroundRuntime) => Promise<void>;
}
