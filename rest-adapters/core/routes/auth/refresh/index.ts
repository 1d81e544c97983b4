import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { CoreRefreshSessionDocument } from '@rest-adapters/generated/operations';
import { RefreshBody } from './schema';

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
  operationId: 'CoreRefreshSession',
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const { refreshSession } = await execute(CoreRefreshSessionDocument, { refreshToken: body.refresh_token });
    return sessionBody(refreshSession, 'authenticated', config);
  },
});
