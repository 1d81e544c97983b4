import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreAccountSettingsDocument } from '@rest-adapters/generated/operations';
import { toAccountSettings } from './mapper';
import { AccountSettingsResponse } from './schema';

/** core-api.md §4: the user's settings, the §2 defaults (updated_at null) when never saved. */
export default defineRoute({
  method: 'GET',
  url: '/auth/account-settings',
  summary: 'Account settings',
  tags: ['core: auth'],
  schema: { response: { 200: AccountSettingsResponse, ...errorResponses(401) } },
  operationId: 'CoreAccountSettings',
  authenticate: userAuth,
  run: async (_input, { execute }) => {
    const data = await execute(CoreAccountSettingsDocument, {});
    return toAccountSettings(data.viewerAccountSettings);
  },
});
