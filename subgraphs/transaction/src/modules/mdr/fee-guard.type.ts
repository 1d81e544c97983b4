import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { MerchantRef } from '@subgraphs/transaction/src/references/merchant.ref';

@ObjectType('MdrOverchargeMonth', {
  description:
    'A merchant’s MDR fee guard of one month (Asia/Jakarta): the fees the banks reported against the MDR policy’s, whole rupiah (docs/decisions/0240-mdr-policy.md).',
})
export class MdrOverchargeMonthType {
  @Field(() => MerchantRef, { description: 'The merchant.' })
  merchant!: MerchantRef;

  @Field({ description: 'YYYY-MM, Asia/Jakarta.' })
  month!: string;

  @Field(() => Int, { description: 'Transactions that carry an MDR (success, refunded, reversed).' })
  transactionCount!: number;

  @Field(() => Int, { description: 'Of them, those whose bank-reported fee (mdrFeeBank) is above the policy’s (mdrFeeAmount).' })
  overchargedCount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ mdrFeeBank.' })
  bankFeeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ mdrFeeAmount: the policy’s fees.' })
  expectedFeeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ (mdrFeeBank − mdrFeeAmount) over the overcharged transactions.' })
  overchargeAmount!: number;

  @Field(() => Int, { description: 'Settlements of the month whose mdrTotal is above the policy’s fees of the transactions they settled.' })
  settlementsOvercharged!: number;

  @Field(() => SafeIntResolver, { description: 'Σ (mdrTotal − the policy’s fees) over those settlements.' })
  settlementOverchargeAmount!: number;
}

@ObjectType('MdrSettlementOvercharge', {
  description:
    'A settlement that settled its whole gross and whose bank-reported MDR total is above the policy’s fees of its transactions.',
})
export class MdrSettlementOverchargeType {
  @Field(() => ID, { description: 'The stored settlement (settlement_ref).' })
  settlementRef!: string;

  @Field({ description: 'The bank’s settlement id.' })
  settlementId!: string;

  @Field({ description: 'The bank that settled it.' })
  bankCode!: string;

  @Field({ description: 'The NMID it settled.' })
  nmid!: string;

  @Field({ description: 'YYYY-MM-DD, Asia/Jakarta.' })
  settlementDate!: string;

  @Field(() => SafeIntResolver, { description: 'As the bank reported it.' })
  mdrTotal!: number;

  @Field(() => SafeIntResolver, { description: 'Σ mdrFeeAmount of the transactions it settled.' })
  expectedMdrTotal!: number;

  @Field(() => SafeIntResolver, { description: 'mdrTotal − expectedMdrTotal.' })
  overchargeAmount!: number;
}

@ObjectType('MdrPolicyRule', {
  description:
    'One rule of the MDR policy (Bank Indonesia’s QRIS MDR): a segment, a merchant criteria (null: every criteria), an amount band and a period (docs/decisions/0240-mdr-policy.md).',
})
export class MdrPolicyRuleType {
  @Field({ description: 'regular, education, fuel, public_service or government_social.' })
  segment!: string;

  @Field(() => String, {
    nullable: true,
    description: 'QRIS merchant criteria (UMI micro, UKE small, UME medium, UBE large, URE regular); null: every criteria.',
  })
  criteria!: string | null;

  @Field(() => SafeIntResolver, { description: 'Lowest amount of the band, whole rupiah, inclusive.' })
  amountFrom!: number;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Highest amount of the band, inclusive; null: no upper bound.' })
  amountTo!: number | null;

  @Field(() => DateTimeResolver, { description: 'In force from, inclusive.' })
  effectiveFrom!: Date;

  @Field(() => DateTimeResolver, { nullable: true, description: 'In force until, exclusive; null: still in force.' })
  effectiveTo!: Date | null;

  @Field({ description: 'Decimal string, e.g. "0.0070".' })
  rate!: string;

  @Field({ description: 'The rule it applies.' })
  source!: string;
}

@ObjectType('MdrRerate', { description: 'An operator’s re-rating of a merchant’s period (ops fees:rerate), as audited.' })
export class MdrRerateType {
  @Field(() => ID, { description: 'The audit row (UUID).' })
  id!: string;

  @Field(() => DateTimeResolver, { description: 'Inclusive.' })
  periodFrom!: Date;

  @Field(() => DateTimeResolver, { description: 'Exclusive.' })
  periodBefore!: Date;

  @Field({ description: 'The QRIS criteria it rated by.' })
  criteria!: string;

  @Field({ description: 'Why, as the operator gave it.' })
  reason!: string;

  @Field({ description: 'Who asked for it.' })
  requestedBy!: string;

  @Field(() => Int, { description: 'Transactions of the period that carry an MDR.' })
  transactions!: number;

  @Field(() => Int, { description: 'Of them, those whose rate or fee changed.' })
  changed!: number;

  @Field(() => SafeIntResolver, { description: 'Σ mdrFeeAmount before.' })
  feeBefore!: number;

  @Field(() => SafeIntResolver, { description: 'Σ mdrFeeAmount after.' })
  feeAfter!: number;

  @Field(() => DateTimeResolver, { description: 'When it was done.' })
  at!: Date;
}
