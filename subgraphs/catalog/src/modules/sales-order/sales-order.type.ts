import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

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

@InputType('PosQrisSettlementInput', { description: 'A dynamic QRIS payment of a sales order that was paid (transaction subgraph).' })
export class QrisSettlementInput {
  @Field(() => ID)
  qrisPaymentId!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID)
  outletId!: string;

  @Field(() => ID)
  salesOrderId!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah.' })
  amount!: number;

  @Field(() => ID, { description: 'The transaction of the bank event that paid it.' })
  transactionId!: string;

  @Field(() => DateTimeResolver)
  paidAt!: Date;
}

@ObjectType('PosQrisSettlementOutcome', { description: 'What a QRIS payment did to its sales order.' })
export class QrisSettlementOutcomeType {
  @Field(() => ID)
  qrisPaymentId!: string;

  @Field({
    description:
      'applied (the order got the payment and is completed), or why not: order_not_found, other_outlet, order_voided, order_refunded, order_already_paid, amount_mismatch.',
  })
  outcome!: string;
}
