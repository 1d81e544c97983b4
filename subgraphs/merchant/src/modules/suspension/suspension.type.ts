import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('MerchantSuspensionDue', {
  description:
    'An active merchant the daily run will suspend (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md, "Automatic suspension"), unless its KYC is renewed or, for inactivity, it takes a payment first.',
})
export class SuspensionDueType {
  @Field(() => ID, { description: 'Merchant id (UUID).' })
  merchantId!: string;

  @Field({ description: 'MRC-… code.' })
  merchantCode!: string;

  @Field({ description: 'Trade name.' })
  merchantName!: string;

  @Field(() => String, { nullable: true, description: 'The bank that gets merchant.suspended.' })
  bankCode!: string | null;

  @Field({ description: 'kyc_expired or inactivity: the reason the suspension will carry.' })
  reason!: string;

  @Field(() => DateTimeResolver, {
    description: 'When the reason holds: the KYC expiry, or the end of the inactivity window (as of the last check of transactions).',
  })
  dueAt!: Date;

  @Field(() => DateTimeResolver, {
    description:
      'The earliest the daily run suspends: the due time, but never before the owner’s warning is SUSPENSION_WARNING_DAYS old (not warned yet: counted from now). The first run at or after it suspends.',
  })
  suspendsAt!: Date;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When the owners were warned for this due day; null when not yet.' })
  warnedAt!: Date | null;

  @Field(() => DateTimeResolver, { nullable: true })
  kycExpiresAt!: Date | null;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'The last successful transaction the transaction subgraph answered at the last check; null for none or not checked yet.',
  })
  lastSuccessfulTransactionAt!: Date | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When the daily run last asked for the merchant’s transactions.' })
  activityCheckedAt!: Date | null;
}
