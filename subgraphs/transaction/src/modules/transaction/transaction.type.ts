import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { MerchantRef } from '@subgraphs/transaction/src/references/merchant.ref';

@Directive('@key(fields: "id")')
@ObjectType('Transaction', { description: 'A payment received by a merchant (QRIS), with its fees and status.' })
export class TransactionType {
  @Field(() => ID, { description: 'Transaction id (UUID).' })
  id!: string;

  @Field({ description: "The bank's transaction code; unique per bank." })
  transactionCode!: string;

  @Field({ description: 'success, pending, failed, cancelled, refunded or reversed.' })
  status!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah.' })
  grossAmount!: number;

  @Field(() => DateTimeResolver, { description: 'When the payment happened.' })
  transactionAt!: Date;

  @Field(() => MerchantRef)
  merchant!: MerchantRef;

  @Field(() => ID, { nullable: true, description: 'Outlet that received the payment.' })
  outletId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Terminal that received the payment; null when unknown.' })
  terminalId!: string | null;

  @Field(() => String, { nullable: true, description: "The bank's reference number." })
  externalReference!: string | null;

  @Field(() => String, { nullable: true, description: 'Retrieval reference number.' })
  rrn!: string | null;

  @Field({ description: 'qris.' })
  paymentMethod!: string;

  @Field(() => String, { nullable: true, description: "The payer's bank (issuer) name." })
  paymentChannel!: string | null;

  @Field({ description: 'MDR rate as a decimal string, e.g. "0.0070"; 0 for failed and cancelled transactions.' })
  mdrRate!: string;

  @Field(() => SafeIntResolver, { description: 'round_half_up(grossAmount × mdrRate), whole rupiah.' })
  mdrFeeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'grossAmount − mdrFeeAmount.' })
  netAmountAfterMdr!: number;

  @Field(() => SafeIntResolver, { description: "The bank's MDR share, as the bank reported it." })
  mdrFeeBank!: number;

  @Field(() => SafeIntResolver, { description: 'As the bank reported it.' })
  switchingFee!: number;

  @Field(() => SafeIntResolver, { description: 'As the bank reported it.' })
  platformFee!: number;

  @Field({ description: 'ISO 4217; IDR.' })
  currency!: string;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When the settlement that covers it completed; null while unsettled.' })
  settledAt!: Date | null;

  @Field({ description: 'unsettled or settled.' })
  settlementStatus!: string;

  @Field(() => SafeIntResolver, { description: 'Sum of the refunds so far (at most grossAmount).' })
  refundedAmount!: number;
}
