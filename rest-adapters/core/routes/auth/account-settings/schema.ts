import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

const flags = {
  notification_push_enabled: Type.Boolean({ description: 'Default true.' }),
  notification_transactions_enabled: Type.Boolean({ description: 'Default true.' }),
  notification_promotions_enabled: Type.Boolean({ description: 'Default true.' }),
  notification_daily_summary_enabled: Type.Boolean({ description: 'Default true.' }),
  app_language: Type.Union([Type.Literal('id'), Type.Literal('en')], { description: 'Default `id`.' }),
  privacy_analytics_enabled: Type.Boolean({ description: 'Default true.' }),
  privacy_data_sharing_enabled: Type.Boolean({ description: 'Default false.' }),
};

/** core-api.md §2 Account settings. */
export const AccountSettingsResponse = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    ...flags,
    updated_at: Nullable(Type.String({ format: 'date-time', description: 'Null while the defaults apply (never saved).' })),
  },
  { additionalProperties: false },
);

/** PUT: the seven fields; any left out keeps its current (or default) value; at least one. */
export const AccountSettingsBody = Type.Partial(Type.Object(flags), { additionalProperties: false, minProperties: 1 });
