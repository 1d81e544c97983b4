import type { FastifyRequest, HTTPMethods } from 'fastify';
import type { Principal } from '@lib/auth/principal';
import { HttpError } from '@lib/rest/error-body';
import { authenticatedBy } from '@lib/rest/openapi';
import type { FixedOperationDocument } from '@lib/rest/operation';
import {
  type RestRoute,
  type RouteContext,
  type RouteExamples,
  type RouteInput,
  type RouteReply,
  type RouteRuntime,
  type RouteSchemas,
  defineRoute,
} from '@lib/rest/route';
import { type MemberRole, currentMembership, internalAuth, userAuth } from '@rest-adapters/core/auth/user-auth';

declare module 'fastify' {
  interface FastifyRequest {
    /** The merchant a point-of-sale request acts for, set by its authentication. */
    posMerchantId?: string;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs a point-of-sale operation for the request's merchant: the surface adds `merchantId` to the variables. */
export type PosExecute = <TResult, TVariables extends { merchantId?: string | null }>(
  operation: FixedOperationDocument<TResult, TVariables>,
  variables: NoInfer<Omit<TVariables, 'merchantId'>>,
) => Promise<TResult>;

/** One point-of-sale route, served twice by `posRoutes`. */
export interface PosRouteDefinition<S extends RouteSchemas> {
  method: HTTPMethods;
  /** The path below `/poslite`, e.g. `/catalog/outlets/:id`. */
  path: string;
  /** The app surface's full path when it is not `/merchant/poslite` + `path` (e.g. `/merchant/outlets/:outlet_id/qris`). */
  appPath?: string;
  summary: string;
  description?: string;
  schema: S;
  /** The OpenAPI operationId's stem (the operation's name); each surface adds its suffix (Service, App). */
  operationId: string;
  /** 201 for creations, 204 (no body) for deletions; 200 otherwise. */
  status?: 200 | 201 | 204;
  /** Examples for the OpenAPI document (lib/rest/route.ts), the same on both surfaces. */
  examples?: RouteExamples<S>;
  /** A body limit and gateway deadline other than the defaults (lib/http/request-limits.ts), e.g. the sync push's. */
  bodyLimit?: number;
  timeoutMs?: number;
  /** `header` sets a header of the answer (e.g. the content type of a body that is not JSON). */
  run: (
    input: RouteInput<S>,
    ctx: {
      execute: PosExecute;
      header: (name: string, value: string) => void;
      request: FastifyRequest;
      /** Takes the answer over (a stream): lib/rest/route.ts `takeOver`. */
      takeOver: RouteContext['takeOver'];
    },
  ) => Promise<RouteReply<S>>;
}

/**
 * The service surface (core-api.md §5 "Point-of-sale service"): X-Internal-API-Key (constant time; wrong or empty
 * → 401 unauthorized), then X-Merchant-ID, a UUID (missing or malformed → 400 bad_request: the caller is known,
 * its request is wrong). The merchant travels as the operation's `merchantId`, which the subgraphs accept only
 * from internal principals.
 */
export async function posInternalAuth(req: FastifyRequest, runtime: RouteRuntime): Promise<Principal> {
  await internalAuth(req, runtime);
  const merchantId = req.headers['x-merchant-id'];
  if (typeof merchantId !== 'string' || !UUID.test(merchantId))
    throw new HttpError(400, 'bad_request', 'X-Merchant-ID must be a merchant UUID');
  req.posMerchantId = merchantId.toLowerCase();
  req.rateLimitKey = `poslite:${req.posMerchantId}`;
  return { kind: 'internal', service: 'poslite' };
}

authenticatedBy('posService', posInternalAuth);

/**
 * The app surface (`/merchant/poslite/...`, bearer): the user's membership decides the merchant, and the same
 * operation runs with the user principal narrowed to it (merchantId, role, outlets). A user without a merchant
 * is 403 forbidden: authenticated, but with nothing to act on.
 */
export async function posUserAuth(req: FastifyRequest, runtime: RouteRuntime): Promise<Principal> {
  req.acting = await userAuth(req, runtime);
  const membership = await currentMembership(runtime);
  if (!membership) throw new HttpError(403, 'forbidden', 'the user belongs to no merchant');
  req.posMerchantId = membership.merchant.id;
  return {
    ...req.acting,
    merchantId: membership.merchant.id,
    role: membership.role as MemberRole,
    outletIds: membership.outletIds,
    ...(membership.terminalId ? { terminalId: membership.terminalId } : {}),
  };
}

authenticatedBy('user', posUserAuth);

/** What every point-of-sale route's description says about its surface (who may call it, for which merchant). */
const SCOPED =
  'Everything is scoped by that merchant: another merchant’s object named in the path answers 404 `not_found`, as an unknown or deleted one.';
const SURFACES = [
  {
    prefix: '/poslite',
    authenticate: posInternalAuth,
    tag: 'core: point of sale (service)',
    suffix: 'Service',
    access: `Service surface, for trusted services: \`X-Internal-API-Key\` (missing or wrong → 401 \`unauthorized\`), then \`X-Merchant-ID\`, the UUID of the merchant to act for (missing or not a UUID → 400 \`bad_request\`). ${SCOPED} 600 requests a minute per merchant.`,
  },
  {
    prefix: '/merchant/poslite',
    authenticate: posUserAuth,
    tag: 'core: point of sale (app)',
    suffix: 'App',
    access: `App surface: bearer access token (missing, invalid, expired or of an ended session → 401 \`unauthorized\`). The merchant is the user’s (active preferred), never chosen by the request; a user without a merchant, a role that may not do this, or an outlet outside the member’s outlets → 403 \`forbidden\`. ${SCOPED} 600 requests a minute per user.`,
  },
] as const;

/** A point-of-sale route on both surfaces from one definition: same schemas, operations and mapping. */
export function posRoutes<S extends RouteSchemas>(def: PosRouteDefinition<S>): RestRoute<S>[] {
  return SURFACES.map(({ prefix, authenticate, tag, suffix, access }) =>
    defineRoute<S>({
      method: def.method,
      url: prefix === '/merchant/poslite' && def.appPath ? def.appPath : `${prefix}${def.path}`,
      summary: def.summary,
      description: [access, def.description].filter(Boolean).join('\n\n'),
      tags: [tag],
      schema: def.schema,
      operationId: `${def.operationId}${suffix}`,
      authenticate,
      rateLimit: { max: 600, windowSecs: 60 },
      examples: def.examples,
      bodyLimit: def.bodyLimit,
      timeoutMs: def.timeoutMs,
      run: async (input, ctx) => {
        const execute: PosExecute = <TResult, TVariables>(operation: FixedOperationDocument<TResult, TVariables>, variables: object) =>
          ctx.execute(operation, { ...variables, merchantId: ctx.request.posMerchantId } as TVariables);
        const result = await def.run(input, { execute, header: ctx.header, request: ctx.request, takeOver: ctx.takeOver });
        if (def.status) ctx.status(def.status);
        return result;
      },
    }),
  );
}
