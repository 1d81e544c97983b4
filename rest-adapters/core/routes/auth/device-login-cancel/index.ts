import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { CoreCancelDeviceLoginDocument } from '@rest-adapters/generated/operations';
import { CancelQuery, CancelledResponse } from './schema';

/**
 * core-api.md §4: the link of a login_alert (single use, 24 h) revokes that login: its session ends and its
 * device is no longer trusted. Unknown, used or expired → 400 `invalid_cancel_token`.
 */
export default defineRoute({
  method: 'GET',
  url: '/auth/device-login/cancel',
  summary: 'Cancel a login from its alert',
  description: [
    'The link of a `login_alert` push (sent to the user’s other devices after a login by code). No bearer: the token is the credential; it is single use and valid 24 h.',
    '',
    '- 200 `cancelled`: that login’s session ends (its refresh tokens at once, its access tokens within 30 s), its device is no longer trusted (the next `POST /auth/resolve-phone` from it asks for verification) and its push token is dropped.',
    '- **400 `invalid_cancel_token`**: a token that is unknown, malformed, already used or past its 24 h.',
    '- 400 `bad_request`: no `token`. 429 `rate_limit_exceeded`: more than 30 requests a minute from the client address.',
  ].join('\n'),
  tags: ['core: auth'],
  schema: { querystring: CancelQuery, response: { 200: CancelledResponse, ...errorResponses(400, 429) } },
  operationId: 'CoreCancelDeviceLogin',
  examples: {
    query: { token: 'dlc_9Xk2mQ7vT4wR8sY1bN6cZ3' },
    responses: { 200: { status: 'cancelled', message: 'The login was cancelled and the device signed out.' } },
  },
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ query }, { execute }) => {
    await execute(CoreCancelDeviceLoginDocument, { token: query.token });
    return { status: 'cancelled' as const, message: 'The login was cancelled and the device signed out.' };
  },
});
