import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

@ObjectType('MerchantAddress')
export class MerchantAddressType {
  @Field(() => String, { nullable: true })
  line!: string | null;

  @Field(() => String, { nullable: true })
  city!: string | null;

  @Field(() => String, { nullable: true })
  province!: string | null;

  @Field(() => String, { nullable: true })
  postalCode!: string | null;

  @Field({ description: 'ISO 3166-1 alpha-2.' })
  country!: string;
}

@Directive('@key(fields: "id")')
@ObjectType('Merchant', { description: 'A merchant: one business entity, one billing; it holds outlets.' })
export class MerchantType {
  @Field(() => ID, { description: 'Merchant id (UUID).' })
  id!: string;

  @Field({ description: 'Canonical service identity (MRC-…), never changes.' })
  merchantCode!: string;

  @Field({ description: 'Trade name.' })
  name!: string;

  @Field(() => String, { nullable: true })
  legalName!: string | null;

  @Field({ description: 'draft, inactive, active, suspended or deleted; pending_review for a referred registration in partnerMerchants.' })
  status!: string;

  @Field(() => String, { nullable: true, description: 'ISO 18245 merchant category code.' })
  categoryCode!: string | null;

  @Field(() => String, { nullable: true })
  categoryName!: string | null;

  @Field(() => String, { nullable: true, description: 'Business scale of the reference data: micro, small, medium or large.' })
  businessScaleCode!: string | null;

  @Field(() => String, { nullable: true, description: 'E.164.' })
  phone!: string | null;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => String, { nullable: true, description: 'Tax number.' })
  npwp!: string | null;

  @Field(() => MerchantAddressType)
  address!: MerchantAddressType;

  @Field({ description: 'pending, verified, expired or rejected.' })
  kycStatus!: string;

  @Field(() => DateTimeResolver, { nullable: true })
  kycVerifiedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'The acquiring bank.' })
  bankCode!: string | null;

  @Field({
    description:
      'Sandbox data: the merchant of a sandbox bank (docs/decisions/0204-sandbox.md). Live lists leave it out; live banks and partners never reach it.',
  })
  sandbox!: boolean;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}

@ObjectType('MerchantPage', { description: 'A keyset page; pass nextCursor as `after` for the next one.' })
export class MerchantPageType {
  @Field(() => [MerchantType])
  items!: MerchantType[];

  @Field(() => String, { nullable: true })
  nextCursor!: string | null;

  @Field()
  hasMore!: boolean;
}
