import type { Static } from '@sinclair/typebox';
import type { CoreAccountSettingsFragment } from '@rest-adapters/generated/operations';
import type { AccountSettingsResponse } from './schema';

type AccountSettings = Static<typeof AccountSettingsResponse>;

export function toAccountSettings(s: CoreAccountSettingsFragment): AccountSettings {
  return {
    user_id: s.userId,
    notification_push_enabled: s.notificationPushEnabled,
    notification_transactions_enabled: s.notificationTransactionsEnabled,
    notification_promotions_enabled: s.notificationPromotionsEnabled,
    notification_daily_summary_enabled: s.notificationDailySummaryEnabled,
    app_language: s.appLanguage as AccountSettings['app_language'],
    privacy_analytics_enabled: s.privacyAnalyticsEnabled,
    privacy_data_sharing_enabled: s.privacyDataSharingEnabled,
    updated_at: s.updatedAt,
  };
}
