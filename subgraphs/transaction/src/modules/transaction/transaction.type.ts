import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { MerchantRef } from '../../references/merchant.ref';

@Directive('@key(fields: "id")')
@ObjectType('Transaction')
export class TransactionType {
  @Field(() => ID)
  id!: string;

  @Field()
  transactionCode!: string;

  @Field({ description: 'success, pending, failed, cancelled, refunded or reversed.' })
  status!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah.' })
  grossAmount!: number;

  @Field(() => DateTimeResolver)
  transactionAt!: Date;

  @Field(() => MerchantRef)
  merchant!: MerchantRef;
}
