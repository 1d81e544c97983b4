import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { forgetSession, userAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreLogoutDocument } from '@rest-adapters/generated/operations';

/** Not in core-api.md: ends the session of the access token (its refresh token and access tokens stop). */
export default defineRoute({
  method: 'POST',
  url: '/auth/logout',
  summary: 'Log out (end this session)',
  description: [
    'Ends the session of the bearer access token: its refresh tokens stop at once (`invalid_refresh_token`), its access tokens at once on this server and within 30 s on the others. Other sessions of the user are untouched.',
    '',
    '- 401 `unauthorized`: no bearer token, or one that is malformed, forged, expired or of a session that already ended (so a second logout with the same token is 401).',
  ].join('\n'),
  tags: ['core: auth'],
  schema: {
    response: { 200: Type.Object({ status: Type.Literal('logged_out') }, { additionalProperties: false }), ...errorResponses(401) },
  },
  operationId: 'CoreLogout',
  examples: { responses: { 200: { status: 'logged_out' } } },
  authenticate: userAuth,
  run: async (_input, { execute, principal }) => {
    await execute(CoreLogoutDocument, {});
    if (principal?.kind === 'user' && principal.sessionId) forgetSession(principal.sessionId);
    return { status: 'logged_out' as const };
  },
});
