import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

const flags = {
  notification_push_enabled: Type.Boolean({
    description: 'Default true. Off: no payment push and no daily summary (a login alert is always sent).',
  }),
  notification_transactions_enabled: Type.Boolean({ description: 'Default true.' }),
  notification_promotions_enabled: Type.Boolean({ description: 'Default true.' }),
  notification_daily_summary_enabled: Type.Boolean({
    description:
      'Default true. On, with push on: one push per business day at the daily summary time (21:00 Asia/Makassar unless the platform sets another) with that day’s success count, gross and net amount after MDR and the daily service fee, as `GET /merchant/transactions?period=today` shows them to the member (its outlets only); an owner whose sales came from several outlets also gets the best outlet.',
  }),
  app_language: Type.Union([Type.Literal('id'), Type.Literal('en')], {
    description:
      'Default `id`. The language of every message sent to the user: login codes by messaging, the login alert, payment pushes, the daily summary, email verification; amounts as `Rp25.000`. A login code for a phone without a user yet is in Indonesian.',
  }),
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
