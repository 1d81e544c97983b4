import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { MerchantRef } from '@subgraphs/catalog/src/references/merchant.ref';

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
  createdAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}

@InputType('CreatePosCategoryInput')
export class CreatePosCategoryInput {
  @Field()
  name!: string;

  @Field(() => ID, { nullable: true })
  parentId?: string | null;

  @Field(() => Int, { nullable: true })
  sortOrder?: number | null;

  @Field(() => String, { nullable: true })
  iconName?: string | null;
}

@InputType('UpdatePosCategoryInput', {
  description: 'Absent or null fields stay as they are; parentId "" moves the category to the top level.',
})
export class UpdatePosCategoryInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  parentId?: string | null;

  @Field(() => Int, { nullable: true })
  sortOrder?: number | null;

  @Field(() => String, { nullable: true })
  iconName?: string | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;
}

@InputType('ProvisionCategoryInput')
export class ProvisionCategoryInput {
  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  iconName?: string | null;
}

@ObjectType('PosDefaultCategory')
export class PosDefaultCategoryType {
  @Field()
  name!: string;

  @Field()
  iconName!: string;

  @Field(() => Int)
  sortOrder!: number;
}

@ObjectType('PosDefaultCategorySet', {
  description: 'Curated starting categories of one business-type category (merchant reference data).',
})
export class PosDefaultCategorySetType {
  @Field({ description: 'BusinessTypeCategory.code; OTHER is the fallback.' })
  categoryCode!: string;

  @Field(() => [PosDefaultCategoryType])
  categories!: PosDefaultCategoryType[];
}
