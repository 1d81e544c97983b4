import type { Static } from '@sinclair/typebox';
import type { AccountSettingsData, AccountSettingsResponse } from './schema';

export function toAccountSettings(s: AccountSettingsData): Static<typeof AccountSettingsResponse> {
  return {
    user_id: s.userId,
    notification_push_enabled: s.notificationPushEnabled,
    notification_transactions_enabled: s.notificationTransactionsEnabled,
    notification_promotions_enabled: s.notificationPromotionsEnabled,
    notification_daily_summary_enabled: s.notificationDailySummaryEnabled,
    app_language: s.appLanguage,
    privacy_analytics_enabled: s.privacyAnalyticsEnabled,
    privacy_data_sharing_enabled: s.privacyDataSharingEnabled,
    updated_at: s.updatedAt,
  };
}
