import { decodeJwt } from 'jose';
import { InvalidatedCache } from '@lib/events/cache-invalidation';
import { verifyOperatorToken } from '@lib/auth/operator-token';
import { ACTING_PRINCIPAL_HEADER, PRINCIPAL_HEADER, type Principal, decodeActingPrincipal, signPrincipal } from '@lib/auth/principal';
import { verifyServiceToken } from '@lib/auth/service-token';
import { USER_TOKEN_ISSUER, verifyUserAccessToken } from '@lib/auth/user-token';
import type { Config } from '@lib/config/config';
import { AppError, ErrorCode } from '@lib/errors/app-error';
import type { SubgraphTransport } from './subgraph-data-source';

type UserPrincipal = Extract<Principal, { kind: 'user' }>;

/** How long the membership (merchant, role, outlets) of a session is trusted: a changed role applies within this time. */
export const MEMBERSHIP_CACHE_MS = 30_000;

const SESSION_QUERY = 'query GatewaySession($sessionId: ID!) { authSession(sessionId: $sessionId) { id userId active } }';
const MEMBERSHIP_QUERY = 'query GatewayMembership { viewerMembership { merchant { id } role outletIds terminalId } }';

interface SessionStatus {
  userId: string;
  active: boolean;
}
interface Membership {
  merchant: { id: string };
  role: NonNullable<UserPrincipal['role']>;
  outletIds: string[];
  terminalId: string | null;
}

/**
 * Who calls the gateway (docs/graphql.md "Identity"). No credential: anonymous (public reference data only).
 * A bearer token is told apart by its (unverified) issuer, then verified as that kind only:
 * - an app user's access token (core auth): valid signature and a live session (the merchant subgraph's
 *   `authSession`, cached ≤ USER_SESSION_CACHE_MS), then the membership (`viewerMembership` run as the user,
 *   cached ≤ 30 s per session) completes the principal; a user without one has no merchantId;
 * - an operator token (OPERATOR_TOKEN_SECRET or OPERATOR_JWKS_URL) → `{kind: 'operator', operatorId, roles}`;
 * - anything else must be a REST adapter's service token, optionally asserting `X-Acting-Principal`.
 * Every failure is UNAUTHENTICATED with HTTP 401.
 */
export class CallerAuthenticator {
  private readonly sessions = new InvalidatedCache<{ session: SessionStatus | null }>(100_000, 30_000, 'gateway_sessions');
  private readonly memberships = new InvalidatedCache<{ membership: Membership | null }>(
    100_000,
    MEMBERSHIP_CACHE_MS,
    'gateway_memberships',
  );

  constructor(
    private readonly config: Config,
    /** The merchant subgraph, as the executor reaches it (its process, or in this process). */
    private readonly merchant: SubgraphTransport,
  ) {}

  /**
   * Drops cached sessions and memberships when they change on any copy (lib/events/cache-invalidation.ts); a
   * membership is cached per session, so a changed membership or merchant status drops them all. Returns the
   * unregistration.
   */
  followInvalidations(): () => void {
    const offs = [
      this.sessions.follow([{ kind: 'session', byKey: true }]),
      this.memberships.follow([
        { kind: 'session', byKey: true },
        { kind: 'membership', byKey: false },
        { kind: 'merchant', byKey: false },
      ]),
    ];
    return () => offs.forEach((off) => off());
  }

  async authenticate(headers: Record<string, string | string[] | undefined>): Promise<Principal> {
    const authorization = headers.authorization;
    const acting = headers[ACTING_PRINCIPAL_HEADER];
    if (!authorization) {
      if (acting) throw unauthenticated('an acting principal needs a service token');
      return { kind: 'anonymous' };
    }
    const match = typeof authorization === 'string' ? /^Bearer (\S+)$/i.exec(authorization) : null;
    if (!match) throw unauthenticated('malformed Authorization header');
    const token = match[1];
    const issuer = issuerOf(token);
    if (issuer === USER_TOKEN_ISSUER) {
      if (acting) throw unauthenticated('an acting principal needs a service token');
      return this.user(token);
    }
    if (issuer === this.config.operatorTokens.issuer) {
      if (acting) throw unauthenticated('an acting principal needs a service token');
      const claims = await verifyOperatorToken(token, this.config.operatorTokens);
      if (!claims) throw unauthenticated('invalid or expired operator token');
      return { kind: 'operator', operatorId: claims.operatorId, roles: claims.roles };
    }
    const service = await verifyServiceToken(token, this.config.secrets.accepted.serviceTokenSecret);
    if (!service) throw unauthenticated('invalid or expired token');
    if (!acting) return { kind: 'service', service };
    const principal = typeof acting === 'string' ? decodeActingPrincipal(acting) : null;
    if (!principal) throw unauthenticated('invalid acting principal');
    return principal;
  }

  private async user(token: string): Promise<UserPrincipal> {
    const claims = await verifyUserAccessToken(token, this.config.secrets.accepted.userTokenSecret);
    if (!claims) throw unauthenticated('access token invalid or expired');
    const session = await this.session(claims.sessionId);
    if (!session?.active || session.userId !== claims.userId) throw unauthenticated('session ended; log in again');
    const base: UserPrincipal = { kind: 'user', userId: claims.userId, sessionId: claims.sessionId };
    const membership = await this.membership(base);
    if (!membership) return base;
    return {
      ...base,
      merchantId: membership.merchant.id,
      role: membership.role,
      outletIds: membership.outletIds,
      ...(membership.terminalId ? { terminalId: membership.terminalId } : {}),
    };
  }

  private async session(sessionId: string): Promise<SessionStatus | null> {
    const cacheMs = this.config.userSessionCacheMs;
    const fetch = async () => ({
      session: (
        await this.ask<{ authSession: SessionStatus | null }>({ kind: 'service', service: 'gateway' }, SESSION_QUERY, { sessionId })
      ).authSession,
    });
    if (cacheMs <= 0) return (await fetch()).session;
    return (await this.sessions.fetch(sessionId, fetch, () => cacheMs)).session;
  }

  private async membership(user: UserPrincipal): Promise<Membership | null> {
    const loaded = await this.memberships.fetch(user.sessionId!, async () => ({
      membership: (await this.ask<{ viewerMembership: Membership | null }>(user, MEMBERSHIP_QUERY, {})).viewerMembership,
    }));
    return loaded.membership;
  }

  /** One operation straight to the merchant subgraph, acting as `principal` (identity look-ups are not routed through the query planner). */
  private async ask<T>(principal: Principal, query: string, variables: Record<string, unknown>): Promise<T> {
    let body: { data?: T; errors?: unknown[] };
    try {
      const headers = {
        'content-type': 'application/json',
        [PRINCIPAL_HEADER]: await signPrincipal(principal, this.config.secrets.principalSecret),
      };
      const answer = await this.merchant({ query, variables }, headers, 5000);
      body = JSON.parse(answer.text) as typeof body;
      if (answer.status !== 200 || !body.data || body.errors?.length) throw new Error(`identity look-up answered ${answer.status}`);
    } catch {
      throw new AppError('a backing service is unavailable', ErrorCode.SERVICE_UNAVAILABLE, { http: { status: 503 } });
    }
    return body.data;
  }
}

function issuerOf(token: string): string | null {
  try {
    const { iss } = decodeJwt(token);
    return typeof iss === 'string' ? iss : null;
  } catch {
    return null;
  }
}

function unauthenticated(message: string): AppError {
  return new AppError(message, ErrorCode.UNAUTHENTICATED, { http: { status: 401 } });
}
