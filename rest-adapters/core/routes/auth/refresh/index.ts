import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { SessionBody, sessionBody } from '@rest-adapters/core/auth/session';
import { CoreRefreshSessionDocument } from '@rest-adapters/generated/operations';
import { RefreshBody } from './schema';
import { DEMO_SESSION } from '@rest-adapters/core/examples';

/**
 * Not in core-api.md (§5 leaves refresh open): rotation with reuse detection (RFC 9700 §4.14.2). Each refresh
 * token works once and returns the next; 401 `invalid_refresh_token` (unknown, expired, session ended), 401
 * `refresh_token_reused` (already used: the whole session is revoked).
 */
export default defineRoute({
  method: 'POST',
  url: '/auth/refresh',
  summary: 'Exchange a refresh token for a new session token pair',
  description: [
    'Rotation with reuse detection (RFC 9700 §4.14.2): each refresh token works once and the answer (`status: authenticated`) carries a new access token and the next refresh token of the same session. A refresh token lasts 30 days, never past its session (90 days from the login). Refresh one at a time: the loser of two concurrent refreshes looks like a reuse.',
    '',
    '- **401 `refresh_token_reused`**: the token was presented before (whatever that answer was). The whole session is revoked: its refresh tokens at once, its access tokens within 30 s.',
    '- **401 `invalid_refresh_token`**: an unknown token, an expired one, or one of a session that ended (logged out, revoked, cancelled from a login alert, past 90 days); log in again.',
    '- 400 `bad_request`: no `refresh_token`. 429 `rate_limit_exceeded`: more than 30 requests a minute from the client address.',
  ].join('\n'),
  tags: ['core: auth'],
  schema: { body: RefreshBody, response: { 200: SessionBody, ...errorResponses(400, 401, 429) } },
  operationId: 'CoreRefreshSession',
  examples: {
    body: { refresh_token: DEMO_SESSION.refresh_token },
    responses: { 200: { ...DEMO_SESSION, status: 'authenticated', refresh_token: 'rt_3Hn8pW1qZ6kV9cX4mB7tR2yD5fG0sJ8L' } },
  },
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ body }, { execute, config }) => {
    const { refreshSession } = await execute(CoreRefreshSessionDocument, { refreshToken: body.refresh_token });
    return sessionBody(refreshSession, 'authenticated', config);
  },
});
