import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A user's app settings (core-api.md §2); absent until the first PUT (GET answers the defaults). */
@Entity({ tableName: 'account_settings' })
export class AccountSettings {
  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'boolean' })
  notificationPushEnabled!: boolean;

  @Property({ type: 'boolean' })
  notificationTransactionsEnabled!: boolean;

  @Property({ type: 'boolean' })
  notificationPromotionsEnabled!: boolean;

  @Property({ type: 'boolean' })
  notificationDailySummaryEnabled!: boolean;

  @Property({ type: 'text' })
  appLanguage!: string;

  @Property({ type: 'boolean' })
  privacyAnalyticsEnabled!: boolean;

  @Property({ type: 'boolean' })
  privacyDataSharingEnabled!: boolean;

  @Property({ type: 'datetime' })
  updatedAt!: Date;
}
