import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { OtpRuntimeStatusType } from './runtime.type';

@Resolver()
export class RuntimeResolver {
  /** One-time passwords live in the merchant schema (DESIGN.md §3), so the store is up when it answers. */
  @Authorized('service', 'internal', 'operator')
  @Query(() => OtpRuntimeStatusType, { description: 'Whether one-time codes can be sent now (provider configured and reachable).' })
  async otpRuntimeStatus(@Ctx() ctx: MerchantContext): Promise<OtpRuntimeStatusType> {
    await ctx.services.otp.ping();
    return { store: 'postgresql', status: 'ok' };
  }
}
