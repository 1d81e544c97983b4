import { SafeIntResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { PUBLIC } from '@lib/federation/build-subgraph-schema';
import { assertUserMay } from '@lib/domain/access/user-scope';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { MerchantRef } from '@subgraphs/transaction/src/references/merchant.ref';
import { TransactionType } from '../transaction/transaction.type';
import type { OverchargeMonthRow, RerateAuditRow, SettlementOverchargeRow } from './fee-guard.repository';
import { MAX_MONTHS } from './fee-guard.service';
import { MdrOverchargeMonthType, MdrPolicyRuleType, MdrRerateType, MdrSettlementOverchargeType } from './fee-guard.type';

/** The MDR policy, the fee guard's figures and the re-ratings' audit (docs/decisions/0240-mdr-policy.md). */
@Resolver()
export class MdrPolicyResolver {
  @Authorized(PUBLIC)
  @Query(() => [MdrPolicyRuleType], { description: 'The MDR policy’s rules, by segment, criteria (null first) and start.' })
  async mdrPolicy(@Ctx() ctx: TransactionContext): Promise<MdrPolicyRuleType[]> {
    return (await ctx.services.feeGuard.policy()).map((row) => camelCased<MdrPolicyRuleType>(row));
  }

  @Authorized('operator', 'internal')
  @Query(() => [MdrOverchargeMonthType], {
    description: 'The merchants the banks overcharged in a month (transactions or settlements above the MDR policy), highest first.',
  })
  async mdrOvercharges(
    @Arg('month', { description: 'YYYY-MM, Asia/Jakarta.' }) month: string,
    @Arg('first', () => Int, { defaultValue: 50, description: '1 to 500.' }) first: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<MdrOverchargeMonthType[]> {
    return (await ctx.services.feeGuard.overchargedInMonth(month, first)).map(toMonthType);
  }
}

@Resolver(() => MerchantRef)
export class MerchantFeeGuardResolver {
  @Authorized('internal', 'operator', 'user')
  @FieldResolver(() => [MdrOverchargeMonthType], {
    description: `The fee guard of every month from \`from\` to \`to\` (YYYY-MM, Asia/Jakarta, inclusive; default the 12 months up to the current one; at most ${MAX_MONTHS}), oldest first. A user principal must be the merchant’s owner.`,
  })
  async mdrOverchargeMonths(
    @Root() merchant: MerchantRef,
    @Arg('from', () => String, { nullable: true, description: 'First month, YYYY-MM.' }) from: string | null,
    @Arg('to', () => String, { nullable: true, description: 'Last month, YYYY-MM.' }) to: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<MdrOverchargeMonthType[]> {
    assertUserMay(ctx.principal, 'corporate', { merchantId: merchant.id });
    return (await ctx.services.feeGuard.monthsOfMerchant(merchant.id.toLowerCase(), from, to)).map(toMonthType);
  }

  @Authorized('internal', 'operator', 'user')
  @FieldResolver(() => [MdrSettlementOverchargeType], {
    description:
      'The month’s settlements whose MDR total is above the policy’s fees, latest first. A user principal must be the merchant’s owner.',
  })
  async mdrSettlementOvercharges(
    @Root() merchant: MerchantRef,
    @Arg('month', { description: 'YYYY-MM, Asia/Jakarta.' }) month: string,
    @Ctx() ctx: TransactionContext,
  ): Promise<MdrSettlementOverchargeType[]> {
    assertUserMay(ctx.principal, 'corporate', { merchantId: merchant.id });
    return (await ctx.services.feeGuard.settlementsOfMonth(merchant.id.toLowerCase(), month)).map(toSettlementType);
  }

  @Authorized('internal', 'operator')
  @FieldResolver(() => [MdrRerateType], { description: 'The operators’ re-ratings of the merchant’s MDR, newest first.' })
  async mdrRerates(
    @Root() merchant: MerchantRef,
    @Arg('last', () => Int, { defaultValue: 20, description: '1 to 200.' }) last: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<MdrRerateType[]> {
    return (await ctx.services.feeGuard.rerates(merchant.id.toLowerCase(), last)).map(toRerateType);
  }
}

@Resolver(() => TransactionType)
export class TransactionFeeGuardResolver {
  @FieldResolver(() => SafeIntResolver, {
    description: 'What the bank reported above the MDR policy’s fee: max(mdrFeeBank − mdrFeeAmount, 0); above 0 is an overcharge.',
  })
  mdrOvercharge(@Root() transaction: TransactionType): number {
    return Math.max(transaction.mdrFeeBank - transaction.mdrFeeAmount, 0);
  }
}

/** A row's snake_case columns under camelCase names: the wire types' fields (other keys are ignored by the schema). */
function camelCased<T>(row: object): T {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), value]),
  ) as T;
}

function toMonthType(row: OverchargeMonthRow): MdrOverchargeMonthType {
  return { ...camelCased<MdrOverchargeMonthType>(row), merchant: { id: row.merchant_id } };
}

const toSettlementType = (row: SettlementOverchargeRow) => camelCased<MdrSettlementOverchargeType>(row);
const toRerateType = (row: RerateAuditRow) => camelCased<MdrRerateType>(row);
