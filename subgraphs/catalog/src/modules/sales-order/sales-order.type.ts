import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('PosSalesOrderItem')
export class SalesOrderItemType {
  @Field(() => ID)
  id!: string;

  @Field(() => Int)
  lineNo!: number;

  @Field(() => ID, { nullable: true })
  variantId!: string | null;

  @Field(() => String, { nullable: true })
  skuSnapshot!: string | null;

  @Field()
  nameSnapshot!: string;

  @Field(() => SafeIntResolver)
  quantity!: number;

  @Field(() => SafeIntResolver)
  unitPriceAmount!: number;

  @Field(() => SafeIntResolver)
  lineTotalAmount!: number;
}

@ObjectType('PosSalesOrderPayment')
export class SalesOrderPaymentType {
  @Field(() => ID)
  id!: string;

  @Field()
  method!: string;

  @Field(() => SafeIntResolver)
  amount!: number;
}

@ObjectType('PosSalesOrder', { description: 'A sales order (core-api.md §2); items and payments only when selected.' })
export class SalesOrderType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID)
  outletId!: string;

  @Field()
  receiptNumber!: string;

  @Field({ description: 'open, completed, voided or refunded.' })
  status!: string;

  @Field()
  source!: string;

  @Field(() => DateTimeResolver)
  transactedAt!: Date;

  @Field(() => SafeIntResolver)
  subtotalAmount!: number;

  @Field(() => SafeIntResolver)
  discountAmount!: number;

  @Field(() => SafeIntResolver)
  taxAmount!: number;

  @Field(() => SafeIntResolver)
  totalAmount!: number;

  @Field(() => SafeIntResolver)
  paidAmount!: number;

  @Field(() => SafeIntResolver)
  changeAmount!: number;

  @Field(() => DateTimeResolver, { nullable: true })
  voidedAt!: Date | null;

  @Field(() => String, { nullable: true })
  voidReason!: string | null;
}
