import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { SandboxSettlementDayType, SandboxTransactionResetType } from './sandbox.type';

/** A sandbox bank's clock, settlement day and reset, transaction side (the bank API's /psp/v1/sandbox routes; docs/decisions/0015-demo-data-and-sandbox.md). */
@Resolver()
export class SandboxTransactionResolver {
  @Authorized('bank')
  @Mutation(() => Int, {
    description:
      'The calling sandbox bank’s clock advanced by seconds (1 to 2592000): its merchants’ pending dynamic QRIS payments expire that much sooner; the number moved. A live bank: FORBIDDEN (reason live_bank).',
  })
  advanceSandboxQrisExpiries(
    @Arg('seconds', () => Int, { description: 'How far the clock advanced.' }) seconds: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<number> {
    return ctx.services.sandbox.advance(ctx.principal, seconds);
  }

  @Authorized('bank')
  @Query(() => SandboxSettlementDayType, {
    description:
      'The calling sandbox bank’s unsettled successful transactions of a sandbox NMID on a Jakarta business date. A live bank: FORBIDDEN (reason live_bank).',
  })
  sandboxSettlementDay(
    @Arg('nmid', { description: 'A sandbox NMID of the bank.' }) nmid: string,
    @Arg('settlementDate', { description: 'Business date (YYYY-MM-DD, Asia/Jakarta).' }) settlementDate: string,
    @Ctx() ctx: TransactionContext,
  ): Promise<SandboxSettlementDayType> {
    return ctx.services.sandbox.settlementDay(ctx.principal, nmid, settlementDate);
  }

  @Authorized('bank')
  @Mutation(() => SandboxTransactionResetType, {
    description:
      'Deletes the calling sandbox bank’s events, transactions, settlements, feed rows and its merchants’ dynamic QRIS payments and rollups; idempotent. A live bank: FORBIDDEN (reason live_bank).',
  })
  resetSandboxTransactions(@Ctx() ctx: TransactionContext): Promise<SandboxTransactionResetType> {
    return ctx.services.sandbox.reset(ctx.principal);
  }
}
