import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { MerchantType } from '../merchant/merchant.type';

@ObjectType('CreatedPartner')
export class CreatedPartnerType {
  @Field(() => ID)
  partnerId!: string;

  @Field()
  partnerCode!: string;

  @Field()
  referralCode!: string;

  @Field(() => Int, { description: 'Merchants already registered with the referral code, now its referrals.' })
  referrals!: number;

  @Field({ description: 'A sandbox partner (docs/decisions/0204-sandbox.md).' })
  sandbox!: boolean;
}

@InputType('IssuePartnerCredentialInput')
export class IssuePartnerCredentialInput {
  @Field()
  partnerCode!: string;

  @Field()
  name!: string;

  @Field({ description: 'A or B.' })
  contract!: string;

  @Field(() => [String], { description: 'merchant.read, transaction.read, scoring.read, risk-summary.read.' })
  scopes!: string[];

  @Field({ defaultValue: 'jwt', description: 'jwt or hmac.' })
  mode!: string;

  @Field({ defaultValue: false })
  outletsEnabled!: boolean;

  @Field(() => Int, { defaultValue: 60 })
  rateLimitPerMinute!: number;
}

@ObjectType('IssuedPartnerCredential', { description: 'The secret is shown here once and never again.' })
export class IssuedPartnerCredentialType {
  @Field()
  credentialKey!: string;

  @Field()
  credentialSecret!: string;

  @Field()
  contract!: string;

  @Field()
  mode!: string;

  @Field({ description: 'A credential of a sandbox partner: it reaches sandbox merchants only.' })
  sandbox!: boolean;
}

@ObjectType('RevokedPartnerCredential')
export class RevokedPartnerCredentialType {
  @Field()
  credentialKey!: string;

  @Field()
  status!: string;

  @Field(() => DateTimeResolver)
  revokedAt!: Date;
}

@ObjectType('PartnerGrant')
export class PartnerGrantType {
  @Field()
  partnerCode!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field({ description: 'referral, consent or assignment.' })
  accessType!: string;

  @Field(() => DateTimeResolver)
  grantedAt!: Date;
}

@ObjectType('IssuedBank', { description: 'A new bank and its two keys; the secrets are shown here once and never again.' })
export class IssuedBankType {
  @Field(() => ID)
  bankId!: string;

  @Field()
  bankCode!: string;

  @Field({ description: 'tier1 or external.' })
  tier!: string;

  @Field({ description: 'A sandbox bank: its keys reach sandbox merchants only (docs/decisions/0204-sandbox.md).' })
  sandbox!: boolean;

  @Field()
  lookupKeyId!: string;

  @Field()
  lookupSecret!: string;

  @Field()
  eventKeyId!: string;

  @Field()
  eventSecret!: string;
}

@ObjectType('BankWebhookEndpoint', { description: 'The signing secret is shown here once and never again.' })
export class BankWebhookEndpointType {
  @Field()
  bankCode!: string;

  @Field()
  url!: string;

  @Field()
  webhookSecret!: string;
}

@ObjectType('WebhookDelivery', { description: 'One lifecycle webhook to a bank, as the outbox holds it.' })
export class WebhookDeliveryType {
  @Field(() => ID)
  eventId!: string;

  @Field()
  event!: string;

  @Field()
  bankCode!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field(() => MerchantType, { nullable: true })
  merchant?: MerchantType | null;

  @Field({ description: 'pending, delivered or failed.' })
  status!: string;

  @Field(() => Int)
  attempts!: number;

  @Field(() => DateTimeResolver)
  nextAttemptAt!: Date;

  @Field(() => Int, { nullable: true })
  lastStatusCode!: number | null;

  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field(() => DateTimeResolver, { nullable: true })
  deliveredAt!: Date | null;
}
