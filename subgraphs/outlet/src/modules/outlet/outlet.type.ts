import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { MerchantRef } from '../../references/merchant.ref';

@Directive('@key(fields: "id")')
@ObjectType('Outlet', { description: 'A business point of a merchant, with its own NMID.' })
export class OutletType {
  @Field(() => ID)
  id!: string;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true, description: 'National merchant ID of this outlet.' })
  nmid!: string | null;

  @Field({ description: 'The transparent outlet of a single-counter merchant.' })
  isDefault!: boolean;

  @Field(() => MerchantRef)
  merchant!: MerchantRef;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}
