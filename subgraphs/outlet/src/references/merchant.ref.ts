import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * The merchant's address (owned by the merchant subgraph): city and postal code are what the QRIS payload of an
 * outlet needs; all of it is what a bank sees, provided from the read model on the bank paths.
 */
@ObjectType('MerchantAddress')
export class MerchantAddressRef {
  @Directive('@external')
  @Field(() => String, { nullable: true })
  line?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  city!: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  province?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  postalCode!: string | null;

  @Directive('@external')
  @Field()
  country?: string;
}

/**
 * Merchant as this subgraph sees it: a stub with its key; the merchant subgraph owns the rest. The external fields
 * are what `PosOutlet.qrisStaticPayload` requires (docs/decisions/0201-qris-payloads.md), which the gateway fetches
 * from the merchant subgraph, and what a bank sees of the merchant, which `pspOutletByNmid` provides from this
 * subgraph's read model (docs/decisions/0211-bank-view-read-model.md).
 */
@Directive('@key(fields: "id")')
@ObjectType('Merchant')
export class MerchantRef {
  @Field(() => ID, { description: 'Merchant id (UUID).' })
  id!: string;

  @Directive('@external')
  @Field()
  name?: string;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  legalName?: string | null;

  @Directive('@external')
  @Field()
  status?: string;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  categoryCode?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  categoryName?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  businessScaleCode?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  email?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  npwp?: string | null;

  @Directive('@external')
  @Field(() => MerchantAddressRef)
  address?: MerchantAddressRef;

  @Directive('@external')
  @Field()
  kycStatus?: string;

  @Directive('@external')
  @Field(() => DateTimeResolver, { nullable: true })
  kycVerifiedAt?: Date | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  bankCode?: string | null;

  @Directive('@external')
  @Field(() => DateTimeResolver)
  createdAt?: Date;

  @Directive('@external')
  @Field(() => DateTimeResolver)
  updatedAt?: Date;
}
