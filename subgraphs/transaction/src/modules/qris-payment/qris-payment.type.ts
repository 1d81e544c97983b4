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

@InputType('CreateQrisPaymentInput')
export class CreateQrisPaymentInput {
  @Field(() => ID)
  outletId!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah, 1 to 10,000,000 (the QRIS cap).' })
  amount!: number;

  @Field(() => ID, { nullable: true, description: 'The sales order this pays (catalog subgraph), if any.' })
  salesOrderId?: string | null;

  @Field(() => Int, { nullable: true, description: 'Seconds until it expires: 60 to 86,400; default 900.' })
  expiresInSecs?: number | null;

  @Field(() => String, { nullable: true, description: 'Idempotency-Key: the same key and body return the same payment.' })
  idempotencyKey?: string | null;

  @Field({ description: "The outlet's NMID, as the outlet subgraph answered it." })
  nmid!: string;

  @Field({ description: "The outlet's static QRIS, as the outlet subgraph answered it: the dynamic payload is derived from it." })
  staticPayload!: string;
}
