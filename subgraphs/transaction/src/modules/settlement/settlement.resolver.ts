import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { bankCodeOf } from '@subgraphs/transaction/src/bank-principal';
import { SettlementInput, SettlementResult } from './settlement.type';

@Resolver()
export class SettlementResolver {
  @Authorized('bank')
  @Mutation(() => SettlementResult, {
    description:
      "Stores a bank's settlement (the bank is the caller) and settles its matching transactions; a repeated settlementId or externalEventId answers duplicate_skipped with the first result once applied, and attempts a rejected one (same two ids) again.",
  })
  async recordSettlement(
    @Arg('input', () => SettlementInput) input: SettlementInput,
    @Ctx() ctx: TransactionContext,
  ): Promise<SettlementResult> {
    const result = await ctx.services.settlement.record(input, bankCodeOf(ctx.principal));
    if (result.status === 'rejected' || (result.status === 'success' && !result.reconciled)) {
      ctx.log.info(
        {
          settlementRef: result.settlementRef,
          status: result.status,
          errorCode: result.errorCode,
          discrepancyAmount: result.discrepancyAmount,
        },
        'settlement not reconciled',
      );
    }
    return result;
  }
}
