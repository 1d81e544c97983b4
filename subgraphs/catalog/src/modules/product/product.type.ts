import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('PosProduct', { description: 'A point-of-sale product (core-api.md §2 Product); barcode is its default variant’s.' })
export class ProductType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID, { nullable: true })
  categoryId!: string | null;

  @Field()
  name!: string;

  @Field()
  sku!: string;

  @Field({ description: 'good or service.' })
  productType!: string;

  @Field(() => SafeIntResolver, { description: 'Rupiah.' })
  sellPriceAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Rupiah.' })
  costPriceAmount!: number;

  @Field(() => String, { nullable: true })
  unitLabel!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;

  @Field(() => Int, { description: 'Basis points, 0 to 10000.' })
  taxRateBps!: number;

  @Field()
  trackStock!: boolean;

  @Field()
  isActive!: boolean;

  @Field(() => Int)
  sortOrder!: number;

  @Field(() => String, { nullable: true })
  barcode!: string | null;

  @Field(() => ID, { description: 'The default variant (created with the product).' })
  defaultVariantId!: string;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}

@InputType('CreatePosProductInput')
export class CreateProductInput {
  @Field()
  name!: string;

  @Field()
  sku!: string;

  @Field(() => ID, { nullable: true })
  categoryId?: string | null;

  @Field(() => String, { nullable: true, description: 'good (default) or service.' })
  productType?: string | null;

  @Field(() => SafeIntResolver, { nullable: true })
  sellPriceAmount?: number | null;

  @Field(() => SafeIntResolver, { nullable: true })
  costPriceAmount?: number | null;

  @Field(() => String, { nullable: true })
  unitLabel?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true })
  imageUrl?: string | null;

  @Field(() => Int, { nullable: true })
  taxRateBps?: number | null;

  @Field(() => Boolean, { nullable: true })
  trackStock?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;

  @Field(() => Int, { nullable: true })
  sortOrder?: number | null;

  @Field(() => String, { nullable: true })
  barcode?: string | null;
}

@InputType('UpdatePosProductInput', {
  description: 'Absent or null fields stay as they are. barcode "" removes it; categoryId "" leaves the product uncategorised.',
})
export class UpdateProductInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  categoryId?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true })
  imageUrl?: string | null;

  @Field(() => String, { nullable: true })
  unitLabel?: string | null;

  @Field(() => SafeIntResolver, { nullable: true })
  sellPriceAmount?: number | null;

  @Field(() => SafeIntResolver, { nullable: true })
  costPriceAmount?: number | null;

  @Field(() => Int, { nullable: true })
  taxRateBps?: number | null;

  @Field(() => Boolean, { nullable: true })
  trackStock?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;

  @Field(() => Int, { nullable: true })
  sortOrder?: number | null;

  @Field(() => String, { nullable: true })
  barcode?: string | null;
}
