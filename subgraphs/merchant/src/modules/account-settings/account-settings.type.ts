import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('AccountSettings', { description: "The calling user's app settings; the documented defaults until first saved." })
export class AccountSettingsType {
  @Field(() => ID)
  userId!: string;

  @Field({ description: 'Push notifications at all (the master switch).' })
  notificationPushEnabled!: boolean;

  @Field({ description: 'Notify each incoming payment.' })
  notificationTransactionsEnabled!: boolean;

  @Field({ description: 'Send promotions and product news.' })
  notificationPromotionsEnabled!: boolean;

  @Field({ description: 'Send the daily sales summary.' })
  notificationDailySummaryEnabled!: boolean;

  @Field({ description: 'id or en.' })
  appLanguage!: string;

  @Field({ description: 'Allow usage analytics.' })
  privacyAnalyticsEnabled!: boolean;

  @Field({ description: 'Allow sharing data with partners the merchant consented to.' })
  privacyDataSharingEnabled!: boolean;

  @Field(() => DateTimeResolver, { nullable: true, description: 'Null while the defaults apply (never saved).' })
  updatedAt!: Date | null;
}

@InputType('AccountSettingsInput', { description: 'Fields left out keep their current (or default) value.' })
export class AccountSettingsInput {
  @Field(() => Boolean, { nullable: true })
  notificationPushEnabled?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  notificationTransactionsEnabled?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  notificationPromotionsEnabled?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  notificationDailySummaryEnabled?: boolean | null;

  @Field(() => String, { nullable: true })
  appLanguage?: string | null;

  @Field(() => Boolean, { nullable: true })
  privacyAnalyticsEnabled?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  privacyDataSharingEnabled?: boolean | null;
}
