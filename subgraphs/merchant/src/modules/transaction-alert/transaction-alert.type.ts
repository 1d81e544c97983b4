import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType('MerchantTransactionAlertInput')
export class MerchantTransactionAlertInput {
  @Field(() => ID)
  merchantId!: string;

  @Field()
  transactionCode!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah.' })
  grossAmount!: number;

  @Field(() => String, { nullable: true })
  referenceNo?: string | null;
}

@ObjectType('MerchantTransactionAlertResult')
export class MerchantTransactionAlertResultType {
  @Field({
    description:
      'sent (at least one push or message accepted), failed (none accepted), no_recipient (no owner) or opted_out (every owner turned transaction notifications off).',
  })
  status!: string;

  @Field(() => Int)
  sentCount!: number;

  @Field(() => Int)
  failedCount!: number;

  @Field(() => Int)
  invalidatedCount!: number;
}
