import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { type SessionGrant, SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { RefreshBody } from './schema';

const operation = loadOperation(__dirname);

/**
 * Not in core-api.md (§5 leaves refresh open): rotation with reuse detection (RFC 9700 §4.14.2). Each refresh
 * token works once and returns the next; 401 `invalid_refresh_token` (unknown, expired, session ended), 401
 * `refresh_token_reused` (already used: the whole session is revoked).
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/refresh',
  summary: 'Exchange a refresh token for a new session token pair',
  tags: ['core: auth'],
  schema: { body: RefreshBody, response: { 200: SessionBody, ...errorResponses(400, 401, 429) } },
  operation,
  rateLimit: { max: 30, windowSecs: 60 },
  handle: async ({ body }, runtime) => {
    const { refreshSession } = await runtime.run<{ refreshSession: SessionGrant }>(operation, { refreshToken: body.refresh_token });
    return sessionBody(refreshSession, 'authenticated', runtime.config);
  },
});
