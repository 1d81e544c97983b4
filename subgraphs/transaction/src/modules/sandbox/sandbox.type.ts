import { SafeIntResolver } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('SandboxTransactionReset', { description: 'What resetSandboxTransactions deleted for the calling sandbox bank.' })
export class SandboxTransactionResetType {
  @Field(() => Int)
  transactions!: number;

  @Field(() => Int)
  paymentEvents!: number;

  @Field(() => Int)
  settlements!: number;

  @Field(() => Int)
  qrisPayments!: number;
}

@ObjectType('SandboxSettlementDay', {
  description:
    'The calling sandbox bank’s unsettled successful transactions of one NMID and Jakarta business date: what a settlement would match.',
})
export class SandboxSettlementDayType {
  @Field(() => Int)
  count!: number;

  @Field(() => SafeIntResolver, { description: 'Their gross total (rupiah).' })
  grossAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Their MDR fees (rupiah).' })
  mdrTotal!: number;
}
