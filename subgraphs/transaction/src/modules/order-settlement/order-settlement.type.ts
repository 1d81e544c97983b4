import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('SalesOrderSettlement', {
  description: 'A paid dynamic QRIS payment linked to a sales order, to be applied to the order in the catalog (settlement outbox).',
})
export class OrderSettlementType {
  @Field({ description: 'Outbox row id (decimal).' })
  id!: string;

  @Field(() => ID)
  qrisPaymentId!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID)
  outletId!: string;

  @Field(() => ID)
  salesOrderId!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah: the payment’s amount.' })
  amount!: number;

  @Field(() => ID, { description: 'The transaction of the bank event that paid it.' })
  transactionId!: string;

  @Field(() => DateTimeResolver)
  paidAt!: Date;

  @Field(() => Int, { description: 'Claims so far, this one included.' })
  attempts!: number;
}

@InputType('SalesOrderSettlementResult')
export class OrderSettlementResultInput {
  @Field({ description: 'The outbox row id.' })
  id!: string;

  @Field({
    description:
      'What the catalog did: applied, order_not_found, other_outlet, order_voided, order_refunded, order_already_paid, amount_mismatch.',
  })
  outcome!: string;
}
