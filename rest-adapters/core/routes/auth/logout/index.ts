import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { forgetSession, userAuth } from '@rest-adapters/core/auth/user-auth';

const operation = loadOperation(__dirname);

/** Not in core-api.md: ends the session of the access token (its refresh token and access tokens stop). */
export default defineRoute({
  method: 'POST',
  url: '/auth/logout',
  summary: 'Log out (end this session)',
  tags: ['core: auth'],
  schema: {
    response: { 200: Type.Object({ status: Type.Literal('logged_out') }, { additionalProperties: false }), ...errorResponses(401) },
  },
  operation,
  authenticate: userAuth,
  handle: async (_input, runtime, req) => {
    await runtime.run(operation, {});
    if (req.acting?.kind === 'user' && req.acting.sessionId) forgetSession(req.acting.sessionId);
    return { status: 'logged_out' as const };
  },
});
