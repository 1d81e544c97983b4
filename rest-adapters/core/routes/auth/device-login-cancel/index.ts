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
  tags: ['core: auth'],
  schema: { querystring: CancelQuery, response: { 200: CancelledResponse, ...errorResponses(400, 429) } },
  operationId: 'CoreCancelDeviceLogin',
  rateLimit: { max: 30, windowSecs: 60 },
  run: async ({ query }, { execute }) => {
    await execute(CoreCancelDeviceLoginDocument, { token: query.token });
    return { status: 'cancelled' as const, message: 'The login was cancelled and the device signed out.' };
  },
});
