import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { MerchantType } from '../merchant/merchant.type';

@ObjectType('Partner', { description: 'A partner of the partner API.' })
export class PartnerType {
  @Field(() => ID)
  id!: string;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field({ description: 'active or suspended.' })
  status!: string;

  @Field({ description: 'A sandbox partner: it reaches sandbox merchants only (docs/decisions/0015-demo-data-and-sandbox.md).' })
  sandbox!: boolean;
}

@ObjectType('PartnerCredential', {
  description: 'A partner credential. Its secret is readable only by the REST adapters (service principals), and only in HMAC mode.',
})
export class PartnerCredentialType {
  @Field(() => ID)
  id!: string;

  @Field()
  credentialKey!: string;

  @Field()
  name!: string;

  @Field({ description: 'jwt (token exchange) or hmac (per-request signatures).' })
  authMode!: string;

  @Field({ description: 'Response contract: A or B.' })
  contract!: string;

  @Field(() => [String])
  scopes!: string[];

  @Field({ description: 'Whether the four outlet endpoints are enabled for this credential.' })
  outletsEnabled!: boolean;

  @Field(() => Int, { description: 'Requests per minute across the partner API.' })
  rateLimitPerMinute!: number;

  @Field({ description: 'active or revoked.' })
  status!: string;

  @Field(() => String, { nullable: true, description: 'The HMAC secret in clear (hmac mode, partnerCredential only); null otherwise.' })
  secret!: string | null;

  @Field(() => PartnerType)
  partner!: PartnerType;
}

@ObjectType('PartnerAccess', { description: 'Why a merchant is in the calling partner’s scope.' })
export class PartnerAccessType {
  @Field(() => ID)
  merchantId!: string;

  @Field({ description: 'referral, consent or assignment.' })
  accessType!: string;

  @Field(() => DateTimeResolver)
  grantedAt!: Date;
}

@ObjectType('PartnerMerchant', { description: 'A merchant in the calling partner’s scope, with the (strongest) live access.' })
export class PartnerMerchantType {
  @Field(() => ID)
  merchantId!: string;

  @Field({ description: 'referral, consent or assignment (referral before consent before assignment).' })
  accessType!: string;

  @Field(() => DateTimeResolver)
  grantedAt!: Date;

  @Field(() => String, { nullable: true, description: 'The referral code the merchant registered with.' })
  referralCode!: string | null;

  @Field(() => ID, { nullable: true, description: 'The partner whose referral code the merchant carries, if any.' })
  referralPartnerId!: string | null;

  @Field(() => MerchantType)
  merchant!: MerchantType;
}

@ObjectType('PartnerConsent', { description: 'A live consent of the merchant letting a partner read its data through the partner API.' })
export class PartnerConsentType {
  @Field({ description: 'Code of the partner.' })
  partnerCode!: string;

  @Field({ description: 'Name of the partner.' })
  partnerName!: string;

  @Field(() => DateTimeResolver, { description: 'When the merchant granted the consent.' })
  grantedAt!: Date;
}
