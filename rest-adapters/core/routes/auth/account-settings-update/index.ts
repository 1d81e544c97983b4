import { HttpError, errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { CoreUpdateAccountSettingsDocument } from '@rest-adapters/generated/operations';
import { toAccountSettings } from '../account-settings/mapper';
import { AccountSettingsBody, AccountSettingsResponse } from '../account-settings/schema';
import { DEMO } from '@lib/domain/demo/demo-ids';

/** core-api.md §4: saves the given settings (the others keep their value); answers the whole record. */
export default defineRoute({
  method: 'PUT',
  url: '/auth/account-settings',
  summary: 'Update account settings',
  tags: ['core: auth'],
  schema: { body: AccountSettingsBody, response: { 200: AccountSettingsResponse, ...errorResponses(400, 401) } },
  operationId: 'CoreUpdateAccountSettings',
  examples: {
    body: { notification_promotions_enabled: false, app_language: 'en' },
    responses: {
      200: {
        user_id: DEMO.owner.userId,
        notification_push_enabled: true,
        notification_transactions_enabled: true,
        notification_promotions_enabled: false,
        notification_daily_summary_enabled: true,
        app_language: 'en',
        privacy_analytics_enabled: true,
        privacy_data_sharing_enabled: false,
        updated_at: '2026-11-20T19:12:05.000+08:00',
      },
    },
  },
  authenticate: userAuth,
  run: async ({ body }, { execute }) => {
    // The validator checks minProperties before it strips unknown properties: {"unknown": 1} arrives here as {}.
    if (Object.keys(body).length === 0) throw new HttpError(400, 'bad_request', 'invalid body: at least one setting is required');
    const data = await execute(CoreUpdateAccountSettingsDocument, {
      input: {
        notificationPushEnabled: body.notification_push_enabled,
        notificationTransactionsEnabled: body.notification_transactions_enabled,
        notificationPromotionsEnabled: body.notification_promotions_enabled,
        notificationDailySummaryEnabled: body.notification_daily_summary_enabled,
        appLanguage: body.app_language,
        privacyAnalyticsEnabled: body.privacy_analytics_enabled,
        privacyDataSharingEnabled: body.privacy_data_sharing_enabled,
      },
    });
    return toAccountSettings(data.updateAccountSettings);
  },
});
