import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** Shareable: part of what banks see (MerchantType). */
@Directive('@shareable')
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

/**
 * The `@shareable` fields are what banks see: the outlet subgraph keeps a copy of them and provides them on the bank
 * paths (docs/decisions/0211-bank-view-read-model.md); everywhere else they are resolved here.
 */
@Directive('@key(fields: "id")')
@ObjectType('Merchant', { description: 'A merchant: one business entity, one billing; it holds outlets.' })
export class MerchantType {
  @Field(() => ID, { description: 'Merchant id (UUID).' })
  id!: string;

  @Field({ description: 'Canonical service identity (MRC-…), never changes.' })
  merchantCode!: string;

  @Directive('@shareable')
  @Field({ description: 'Trade name.' })
  name!: string;

  @Directive('@shareable')
  @Field(() => String, { nullable: true })
  legalName!: string | null;

  @Directive('@shareable')
  @Field({ description: 'draft, inactive, active, suspended or deleted; pending_review for a referred registration in partnerMerchants.' })
  status!: string;

  @Directive('@shareable')
  @Field(() => String, { nullable: true, description: 'ISO 18245 merchant category code.' })
  categoryCode!: string | null;

  @Directive('@shareable')
  @Field(() => String, { nullable: true })
  categoryName!: string | null;

  @Field(() => String, { nullable: true, description: 'Business scale of the reference data: micro, small, medium or large.' })
  businessScaleCode!: string | null;

  @Directive('@shareable')
  @Field(() => String, { nullable: true, description: 'E.164.' })
  phone!: string | null;

  @Directive('@shareable')
  @Field(() => String, { nullable: true })
  email!: string | null;

  @Directive('@shareable')
  @Field(() => String, { nullable: true, description: 'Tax number.' })
  npwp!: string | null;

  @Directive('@shareable')
  @Field(() => MerchantAddressType)
  address!: MerchantAddressType;

  @Directive('@shareable')
  @Field({ description: 'pending, verified, expired or rejected.' })
  kycStatus!: string;

  @Directive('@shareable')
  @Field(() => DateTimeResolver, { nullable: true })
  kycVerifiedAt!: Date | null;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description:
      'When the KYC verification stops holding: set at approval or verification, moved by an operator’s renewal (renewMerchantKyc). An active merchant past it is suspended (reason kyc_expired) by the daily run.',
  })
  kycExpiresAt!: Date | null;

  @Directive('@shareable')
  @Field(() => String, { nullable: true, description: 'The acquiring bank.' })
  bankCode!: string | null;

  @Field({
    description:
      'Sandbox data: the merchant of a sandbox bank (docs/decisions/0015-demo-data-and-sandbox.md). Live lists leave it out; live banks and partners never reach it.',
  })
  sandbox!: boolean;

  @Directive('@shareable')
  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Directive('@shareable')
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
