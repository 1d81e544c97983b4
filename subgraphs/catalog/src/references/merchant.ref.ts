import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** Merchant as this subgraph sees it: a stub with only its key; the merchant subgraph owns the rest. */
@Directive('@key(fields: "id")')
@ObjectType('Merchant')
export class MerchantRef {
  @Field(() => ID, { description: 'Merchant id (UUID).' })
  id!: string;
}
