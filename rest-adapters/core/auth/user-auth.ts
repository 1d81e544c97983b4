import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../../lib/auth/principal';
import { verifyUserAccessToken } from '../../../lib/auth/user-token';
import { HttpError } from '../../../lib/rest/error-body';
import { loadOperation } from '../../../lib/rest/operation';
import type { RouteRuntime } from '../../../lib/rest/route';

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

const membershipOperation = loadOperation(__dirname, 'membership.graphql');

/**
 * Bearer authentication of the app's routes (core-api.md §5): an access token from the core auth
 * (lib/auth/user-token.ts). Missing, malformed, forged or expired → 401 `unauthorized`.
 */
export async function userAuth(req: FastifyRequest, runtime: RouteRuntime): Promise<UserPrincipal> {
  const authorization = req.headers.authorization;
  if (!authorization) throw new HttpError(401, 'unauthorized', 'missing Authorization bearer token');
  const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i.exec(authorization);
  if (!match) throw new HttpError(401, 'unauthorized', 'Authorization must be "Bearer <access token>"');
  const claims = await verifyUserAccessToken(match[1], runtime.config.secrets.userTokenSecret);
  if (!claims) throw new HttpError(401, 'unauthorized', 'access token invalid or expired');
  req.rateLimitKey = `user:${claims.userId}`;
  return { kind: 'user', userId: claims.userId, sessionId: claims.sessionId };
}

/**
 * Internal endpoints (core-api.md §5): `X-Internal-API-Key` equal to INTERNAL_API_KEY, compared in constant
 * time. Missing or wrong → 401 `unauthorized`.
 */
export async function internalAuth(req: FastifyRequest, runtime: RouteRuntime): Promise<Principal> {
  const given = req.headers['x-internal-api-key'];
  if (typeof given !== 'string' || !keyMatches(given, runtime.config.secrets.internalApiKey)) {
    throw new HttpError(401, 'unauthorized', 'X-Internal-API-Key missing or wrong');
  }
  return { kind: 'internal', service: 'core-internal' };
}

function keyMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface Membership {
  merchant: { id: string; merchantCode: string; name: string; status: string };
  role: 'owner' | 'admin' | 'staff' | 'viewer';
  outletIds: string[];
  terminalId: string | null;
}

/** The merchant the authenticated user acts for (active preferred), with role and outlets; null without one. */
export async function currentMembership(runtime: RouteRuntime): Promise<Membership | null> {
  const data = await runtime.run<{ viewerMembership: Membership | null }>(membershipOperation, {});
  return data.viewerMembership;
}
