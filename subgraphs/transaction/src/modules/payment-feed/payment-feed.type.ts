import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('PaymentFeedEvent', {
  description:
    'A successful transaction of the live payment feed, with the dynamic QRIS payment it settled (docs/decisions/0202-live-payment-events.md).',
})
export class PaymentFeedEventType {
  @Field({ description: 'Decimal, increasing in commit order: the SSE event id.' })
  id!: string;

  @Field({
    description:
      'transaction.success, qris_payment.paid when it settled a dynamic QRIS payment, or qris_payment.cancelled (a cancelled payment: no transaction).',
  })
  kind!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID)
  outletId!: string;

  @Field(() => ID, { nullable: true })
  terminalId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Null for qris_payment.cancelled.' })
  transactionId!: string | null;

  @Field(() => String, { nullable: true, description: 'Null for qris_payment.cancelled.' })
  transactionCode!: string | null;

  @Field(() => String, { nullable: true })
  referenceNumber!: string | null;

  @Field(() => String, { nullable: true, description: 'Null for qris_payment.cancelled.' })
  bankCode!: string | null;

  @Field()
  nmid!: string;

  @Field(() => SafeIntResolver, { description: 'Gross amount, whole rupiah.' })
  amount!: number;

  @Field(() => DateTimeResolver, { nullable: true, description: 'Null for qris_payment.cancelled.' })
  transactionAt!: Date | null;

  @Field(() => ID, { nullable: true })
  qrisPaymentId!: string | null;

  @Field(() => String, { nullable: true })
  billNumber!: string | null;

  @Field(() => ID, { nullable: true })
  salesOrderId!: string | null;

  @Field(() => DateTimeResolver)
  createdAt!: Date;
}

@ObjectType('PaymentFeedPage', { description: 'A page of a merchant’s payment feed (live payment events), oldest first.' })
export class PaymentFeedPageType {
  @Field({ description: 'The newest event id of the merchant ("0" when none): where a new stream starts.' })
  headId!: string;

  @Field({ description: 'The last event id read (seen by the caller or not): page on from here.' })
  lastId!: string;

  @Field(() => [PaymentFeedEventType])
  events!: PaymentFeedEventType[];
}
