import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('QrisPayment', { description: 'A dynamic QRIS for one sale (docs/decisions/0201-qris-payloads.md).' })
export class QrisPaymentType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  outletId!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah.' })
  amount!: number;

  @Field({ description: 'Tag 62.01 of the payload; a bank event whose reference_number equals it settles the payment.' })
  billNumber!: string;

  @Field({ description: 'The EMVCo/QRIS payload to show as a QR code (point of initiation 12).' })
  qrisPayload!: string;

  @Field({ description: 'pending, paid, expired (pending past expiresAt) or cancelled.' })
  status!: string;

  @Field(() => ID, { nullable: true })
  salesOrderId!: string | null;

  @Field(() => DateTimeResolver)
  expiresAt!: Date;

  @Field(() => DateTimeResolver, { nullable: true })
  paidAt!: Date | null;

  @Field(() => ID, { nullable: true, description: 'The transaction of the bank event that paid it.' })
  transactionId!: string | null;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field({ description: 'True when an earlier request with the same Idempotency-Key created it.' })
  idempotentReplay!: boolean;
}

@InputType('QrisSalesOrderInput', {
  description:
    'The sales order a payment is for, as the catalog subgraph answered it: the documented answers at creation. The catalog checks the order again when the payment settles it.',
})
export class QrisSalesOrderInput {
  @Field(() => ID, { description: 'The order’s outlet: it must be the payment’s.' })
  outletId!: string;

  @Field({ description: 'open, completed, voided or refunded: only an open order can be paid.' })
  status!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah.' })
  totalAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah already paid (e.g. a cash part).' })
  paidAmount!: number;
}

@InputType('CreateQrisPaymentInput')
export class CreateQrisPaymentInput {
  @Field(() => ID)
  outletId!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah, 1 to 10,000,000 (the QRIS cap).' })
  amount!: number;

  @Field(() => ID, { nullable: true, description: 'The sales order this pays (catalog subgraph), if any.' })
  salesOrderId?: string | null;

  @Field(() => QrisSalesOrderInput, {
    nullable: true,
    description: 'Required with salesOrderId: the order as the catalog answered it. The amount must be what is left to pay.',
  })
  salesOrder?: QrisSalesOrderInput | null;

  @Field(() => Int, { nullable: true, description: 'Seconds until it expires: 60 to 86,400; default 900.' })
  expiresInSecs?: number | null;

  @Field(() => String, { nullable: true, description: 'Idempotency-Key: the same key and body return the same payment.' })
  idempotencyKey?: string | null;
}

@ObjectType('QrisUnmatchedPayment', {
  description:
    'A bank success event that named a bill number of ours but settled no dynamic QRIS payment, kept for reconciliation (docs/decisions/0201-qris-payloads.md).',
})
export class QrisUnmatchedPaymentType {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'unknown_bill_number, other_outlet, amount_mismatch, expired, cancelled or already_paid.' })
  reason!: string;

  @Field({ description: 'The event’s reference_number.' })
  billNumber!: string;

  @Field(() => SafeIntResolver, { nullable: true, description: 'The event’s gross amount, whole rupiah.' })
  grossAmount!: number | null;

  @Field()
  bankCode!: string;

  @Field()
  nmid!: string;

  @Field(() => ID, { nullable: true })
  merchantId!: string | null;

  @Field(() => ID, { nullable: true })
  outletId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The payment of the bill number, when there is one.' })
  qrisPaymentId!: string | null;

  @Field(() => ID, { description: 'The payment event (inbox row).' })
  paymentEventId!: string;

  @Field(() => ID, { nullable: true, description: 'The transaction the event recorded (the money did move).' })
  transactionId!: string | null;

  @Field(() => DateTimeResolver, { description: 'The event’s transaction_at.' })
  transactionAt!: Date;

  @Field(() => DateTimeResolver)
  createdAt!: Date;
}

@ObjectType('QrisUnmatchedPaymentPage', { description: 'A keyset page, newest first; pass nextCursor as `after` for the next one.' })
export class QrisUnmatchedPaymentPageType {
  @Field(() => [QrisUnmatchedPaymentType])
  items!: QrisUnmatchedPaymentType[];

  @Field(() => String, { nullable: true, description: 'Cursor of the next page; null on the last one.' })
  nextCursor!: string | null;
}
