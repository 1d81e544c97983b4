import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Principal } from '../auth/principal';
import type { Config } from '../config/config';
import type { ExecuteOptions } from './gateway-client';
import type { FixedOperationDocument } from './operation';

export interface RouteSchemas {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** One schema per documented status; the 200 schema is also what keeps unlisted fields from leaving. */
  response: Record<number, TSchema>;
}

type Input<S extends RouteSchemas> = {
  params: S['params'] extends TSchema ? Static<S['params']> : undefined;
  query: S['querystring'] extends TSchema ? Static<S['querystring']> : undefined;
  body: S['body'] extends TSchema ? Static<S['body']> : undefined;
};

/** What a route's custom `handle` gets: the gateway, bound to the current request's id. */
export interface RouteRuntime {
  /** The REST process's validated configuration (secrets included: never log it). */
  config: Config;
  run<T>(operation: FixedOperationDocument, variables: Record<string, unknown>, options?: Partial<ExecuteOptions>): Promise<T>;
}

/**
 * A documented REST route: authenticate → validate (by schema) → ONE fixed GraphQL operation → map.
 * `handle` replaces the default flow for routes that must shape their own status (e.g. health).
 */
export interface RestRoute<S extends RouteSchemas = RouteSchemas, Data = any> {
  method: HTTPMethods;
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  schema: S;
  operation: FixedOperationDocument;
  /** OpenAPI operationId when one operation serves several routes (unique per route); the operation's name otherwise. */
  operationId?: string;
  variables?: (input: Input<S>) => Record<string, unknown>;
  /** Fetches the data instead of running `operation` with `variables` (e.g. through a micro-batch); cached and mapped as usual. */
  load?: (input: Input<S>, runtime: RouteRuntime, req: FastifyRequest) => Promise<Data>;
  map?: (data: Data, input: Input<S>) => Static<S['response'][200]>;
  /**
   * Verifies the caller (signature, token, key) and returns who the route acts for; it throws an HttpError
   * (401, 403) to refuse. Without it the route is public and the adapter acts as itself.
   */
  authenticate?: (req: FastifyRequest, runtime: RouteRuntime) => Promise<Principal>;
  /** Public, slowly changing data: ETag and Cache-Control, and an in-process cache when enabled. */
  cacheable?: boolean;
  /** Answers kept per acting principal for this many seconds (e.g. bank lookups by NMID, psp-api.md §8). */
  privateCacheSecs?: number;
  /** Requests allowed per credential (req.rateLimitKey, else the client address) in a window. */
  rateLimit?: { max: number; windowSecs: number };
  handle?: (input: Input<S>, runtime: RouteRuntime, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

export function defineRoute<S extends RouteSchemas, Data>(route: RestRoute<S, Data>): RestRoute<S, Data> {
  return route;
}

/** A REST adapter is a set of routes with the OpenAPI tags that describe them. */
export interface RestAdapter {
  name: string;
  description: string;
  routes: RestRoute<any, any>[];
  /** Shared schemas with an $id, referenced by the routes' schemas (Type.Ref). */
  schemas?: TSchema[];
}
