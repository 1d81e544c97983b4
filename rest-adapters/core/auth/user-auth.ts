import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { InvalidatedCache } from '@lib/events/cache-invalidation';
import type { Principal } from '@lib/auth/principal';
import { verifyUserAccessToken } from '@lib/auth/user-token';
import { HttpError } from '@lib/rest/error-body';
import { authenticatedBy } from '@lib/rest/openapi';
import type { RouteRuntime } from '@lib/rest/route';
import {
  CoreAuthSessionDocument,
  type CoreAuthSessionQuery,
  ViewerMembershipDocument,
  type ViewerMembershipQuery,
} from '@rest-adapters/generated/operations';

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

type SessionStatus = NonNullable<CoreAuthSessionQuery['authSession']>;

/**
 * Session liveness as the merchant subgraph last answered it, kept ≤ USER_SESSION_CACHE_MS (at most 30 s):
 * a revoked session's access tokens stop within that time in every REST process, at once in the one that
 * revoked it (forgetSession). Unknown session ids are remembered too (as null), so forged `sid`s with a valid
 * signature — which would need the signing secret — cannot load the database either.
 */
const sessions = new InvalidatedCache<{ session: SessionStatus | null }>(100_000, 30_000, 'rest_sessions');
sessions.follow([{ kind: 'session', byKey: true }]);

/** Drops a session from this process's cache (after a logout or a revocation handled here). */
export function forgetSession(sessionId: string): void {
  sessions.forget(sessionId);
}

async function sessionOf(sessionId: string, runtime: RouteRuntime): Promise<SessionStatus | null> {
  const cacheMs = runtime.config.userSessionCacheMs;
  const fetch = async () => ({
    session: (await runtime.execute(CoreAuthSessionDocument, { sessionId }, { acting: undefined })).authSession,
  });
  if (cacheMs <= 0) return (await fetch()).session;
  return (await sessions.fetch(sessionId, fetch, () => cacheMs)).session;
}

/**
 * Bearer authentication of the app's routes (core-api.md §5): an access token from the core auth
 * (lib/auth/user-token.ts) whose session is still live (not logged out, revoked by reuse detection or a
 * cancelled login). Missing, malformed, forged, expired or of an ended session → 401 `unauthorized`.
 */
export async function userAuth(req: FastifyRequest, runtime: RouteRuntime): Promise<UserPrincipal> {
  const authorization = req.headers.authorization;
  if (!authorization) throw new HttpError(401, 'unauthorized', 'missing Authorization bearer token');
  const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i.exec(authorization);
  if (!match) throw new HttpError(401, 'unauthorized', 'Authorization must be "Bearer <access token>"');
  const claims = await verifyUserAccessToken(match[1], runtime.config.secrets.accepted.userTokenSecret);
  if (!claims) throw new HttpError(401, 'unauthorized', 'access token invalid or expired');
  const session = await sessionOf(claims.sessionId, runtime);
  if (!session?.active || session.userId !== claims.userId) throw new HttpError(401, 'unauthorized', 'session ended; log in again');
  req.rateLimitKey = `user:${claims.userId}`;
  return { kind: 'user', userId: claims.userId, sessionId: claims.sessionId };
}

authenticatedBy('user', userAuth);

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

authenticatedBy('internal', internalAuth);

function keyMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type Membership = NonNullable<ViewerMembershipQuery['viewerMembership']>;
/** A member's role as the user principal carries it (the schema's String holds one of these). */
export type MemberRole = NonNullable<UserPrincipal['role']>;

/** The merchant the authenticated user acts for (active preferred), with role and outlets; null without one. */
export async function currentMembership(runtime: RouteRuntime): Promise<Membership | null> {
  const data = await runtime.execute(ViewerMembershipDocument, {});
  return data.viewerMembership;
}
