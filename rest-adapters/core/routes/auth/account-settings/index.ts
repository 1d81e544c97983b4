import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreAccountSettingsDocument } from '@rest-adapters/generated/operations';
import { toAccountSettings } from './mapper';
import { AccountSettingsResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

/** core-api.md §4: the user's settings, the §2 defaults (updated_at null) when never saved. */
export default defineRoute({
  method: 'GET',
  url: '/auth/account-settings',
  summary: 'Account settings',
  tags: ['core: auth'],
  schema: { response: { 200: AccountSettingsResponse, ...errorResponses(401) } },
  operationId: 'CoreAccountSettings',
  examples: {
    responses: {
      200: {
        user_id: DEMO.owner.userId,
        notification_push_enabled: true,
        notification_transactions_enabled: true,
        notification_promotions_enabled: false,
        notification_daily_summary_enabled: true,
        app_language: 'id',
        privacy_analytics_enabled: true,
        privacy_data_sharing_enabled: false,
        updated_at: '2026-11-20T19:12:05.000+08:00',
      },
    },
  },
  authenticate: userAuth,
  run: async (_input, { execute }) => {
    const data = await execute(CoreAccountSettingsDocument, {});
    return toAccountSettings(data.viewerAccountSettings);
  },
});
