import { errorResponses } from '@lib/rest/error-body';
import { loadOperation } from '@lib/rest/operation';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { toAccountSettings } from './mapper';
import { type AccountSettingsData, AccountSettingsResponse } from './schema';

/** core-api.md §4: the user's settings, the §2 defaults (updated_at null) when never saved. */
export default defineRoute({
  method: 'GET',
  url: '/auth/account-settings',
  summary: 'Account settings',
  tags: ['core: auth'],
  schema: { response: { 200: AccountSettingsResponse, ...errorResponses(401) } },
  operation: loadOperation(__dirname),
  authenticate: userAuth,
  map: (data: { viewerAccountSettings: AccountSettingsData }) => toAccountSettings(data.viewerAccountSettings),
});
