import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { SandboxClockType, SandboxMerchantResetType } from './sandbox.type';

/** A sandbox bank's clock and reset, merchant side (the bank API's /psp/v1/sandbox routes; docs/decisions/0015-demo-data-and-sandbox.md). */
@Resolver()
export class SandboxResolver {
  @Authorized('bank')
  @Query(() => SandboxClockType, { description: 'The calling sandbox bank’s sandbox clock. A live bank: FORBIDDEN (reason live_bank).' })
  sandboxClock(@Ctx() ctx: MerchantContext): Promise<SandboxClockType> {
    return ctx.services.sandbox.clock(ctx.principal);
  }

  @Authorized('bank')
  @Mutation(() => SandboxClockType, {
    description:
      'Advances the calling sandbox bank’s sandbox clock by seconds (1 to 2592000) and moves its pending webhook retries that much closer (never before now). A live bank: FORBIDDEN (reason live_bank).',
  })
  advanceSandboxClock(
    @Arg('seconds', () => Int, { description: 'How far to advance: 1 s to 30 days.' }) seconds: number,
    @Ctx() ctx: MerchantContext,
  ): Promise<SandboxClockType> {
    return ctx.services.sandbox.advance(ctx.principal, seconds);
  }

  @Authorized('bank')
  @Mutation(() => SandboxMerchantResetType, {
    description:
      'Deletes the calling sandbox bank’s webhook deliveries and clock and restores its sandbox merchants to the issued state; idempotent. A live bank: FORBIDDEN (reason live_bank).',
  })
  resetSandbox(@Ctx() ctx: MerchantContext): Promise<SandboxMerchantResetType> {
    return ctx.services.sandbox.reset(ctx.principal);
  }
}
