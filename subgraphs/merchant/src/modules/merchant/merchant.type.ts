import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

@Directive('@key(fields: "id")')
@ObjectType('Merchant', { description: 'A merchant: one business entity, one billing; it holds outlets.' })
export class MerchantType {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Canonical service identity (MRC-…), never changes.' })
  merchantCode!: string;

  @Field()
  name!: string;

  @Field({ description: 'draft, inactive, active, suspended or deleted.' })
  status!: string;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}
