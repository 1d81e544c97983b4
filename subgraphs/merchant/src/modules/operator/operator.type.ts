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

  @Field({ description: 'A sandbox partner (docs/decisions/0015-demo-data-and-sandbox.md).' })
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

  @Field({ description: 'A sandbox bank: its keys reach sandbox merchants only (docs/decisions/0015-demo-data-and-sandbox.md).' })
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

@ObjectType('WebhookDelivery', { description: 'One lifecycle webhook (or test event) to a bank, as the outbox holds it.' })
export class WebhookDeliveryType {
  @Field(() => ID)
  eventId!: string;

  @Field({ description: 'A lifecycle event (merchant.…), or webhook.test for an operator’s test event.' })
  event!: string;

  @Field()
  bankCode!: string;

  @Field(() => ID, { nullable: true, description: 'Null for a test event.' })
  merchantId!: string | null;

  @Field(() => MerchantType, { nullable: true })
  merchant?: MerchantType | null;

  @Field({
    description:
      'pending (an attempt is to come), held (the endpoint is disabled), delivered (an attempt got a 2xx) or failed (the automatic schedule ended without one).',
  })
  status!: string;

  @Field(() => Int, { description: 'Automatic attempts made (of 5); manual and test attempts are listed by webhookAttempts.' })
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

@ObjectType('WebhookAttempt', { description: 'One attempt of a webhook delivery, as it was made and answered.' })
export class WebhookAttemptType {
  @Field(() => Int, { description: 'The attempt’s place among all of the delivery’s attempts (1 = first).' })
  attempt!: number;

  @Field({ description: 'automatic (the retry schedule), manual (an operator’s redelivery) or test.' })
  kind!: string;

  @Field(() => Int, { nullable: true, description: 'Automatic attempts: which of the schedule’s 5.' })
  scheduleNo!: number | null;

  @Field(() => DateTimeResolver)
  startedAt!: Date;

  @Field(() => Int, { description: 'Until the answer (or the error), in milliseconds.' })
  latencyMs!: number;

  @Field(() => Int, { nullable: true, description: 'The HTTP status; null when no answer came (network error, timeout).' })
  statusCode!: number | null;

  @Field(() => String, { nullable: true, description: 'Why it failed; null for a 2xx.' })
  error!: string | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When this failure scheduled the next automatic attempt.' })
  nextAttemptAt!: Date | null;
}

@ObjectType('WebhookTestResult', { description: 'The outcome of a test event sent to a bank’s endpoint.' })
export class WebhookTestResultType {
  @Field(() => ID, { description: 'The test event’s id (X-Service-Event-ID), listed among the deliveries.' })
  eventId!: string;

  @Field({ description: 'Whether the endpoint answered 2xx.' })
  delivered!: boolean;

  @Field(() => Int, { nullable: true, description: 'The HTTP status; null when no answer came.' })
  statusCode!: number | null;

  @Field(() => String, { nullable: true, description: 'Why it failed; null for a 2xx.' })
  error!: string | null;

  @Field(() => Int, { description: 'Until the answer (or the error), in milliseconds.' })
  latencyMs!: number;
}

@ObjectType('WebhookEndpointState', { description: 'Whether a bank’s webhook endpoint is enabled.' })
export class WebhookEndpointStateType {
  @Field()
  bankCode!: string;

  @Field()
  url!: string;

  @Field({ description: 'False while disabled: its deliveries are held, not attempted and not lost.' })
  enabled!: boolean;

  @Field(() => DateTimeResolver, { nullable: true })
  disabledAt!: Date | null;

  @Field(() => String, { nullable: true })
  disabledReason!: string | null;

  @Field(() => Int, { description: 'Enabling: the held deliveries that were given their next attempt now.' })
  resumed!: number;
}
