import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** The merchant's address as the QRIS payload of an outlet needs it (owned by the merchant subgraph). */
@ObjectType('MerchantAddress')
export class MerchantAddressRef {
  @Directive('@external')
  @Field(() => String, { nullable: true })
  city!: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  postalCode!: string | null;
}

/**
 * Merchant as this subgraph sees it: a stub with its key; the merchant subgraph owns the rest. The external
 * fields are what `PosOutlet.qrisStaticPayload` requires (docs/decisions/0201-qris-payloads.md): the gateway
 * fetches them from the merchant subgraph and hands them to this one in the outlet's representation.
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
  categoryCode?: string | null;

  @Directive('@external')
  @Field(() => String, { nullable: true })
  businessScaleCode?: string | null;

  @Directive('@external')
  @Field(() => MerchantAddressRef)
  address?: MerchantAddressRef;
}
