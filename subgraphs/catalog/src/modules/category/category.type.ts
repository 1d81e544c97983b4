import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { MerchantRef } from '../../references/merchant.ref';

@Directive('@key(fields: "id")')
@ObjectType('Category', { description: 'A point-of-sale product category.' })
export class CategoryType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => ID, { nullable: true })
  parentId!: string | null;

  @Field(() => Int)
  sortOrder!: number;

  @Field(() => String, { nullable: true })
  iconName!: string | null;

  @Field()
  isActive!: boolean;

  @Field(() => MerchantRef)
  merchant!: MerchantRef;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}
