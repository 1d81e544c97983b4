import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { ForbiddenError, NotFoundError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { toAppUserType } from '../member/member.service';
import { MerchantType } from '../merchant/merchant.type';
import { ViewerType } from './viewer.type';

/** The app's entry points. The merchant is the one the gateway put into the principal (viewerMembership). */
@Resolver()
export class ViewerResolver {
  @Authorized('user')
  @Query(() => ViewerType, { description: 'The signed-in app user and the merchant they act for.' })
  async viewer(@Ctx() ctx: MerchantContext): Promise<ViewerType> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    const user = await ctx.services.membership.userOf(ctx.principal.userId);
    if (!user) throw new NotFoundError('user');
    const membership = ctx.principal.merchantId ? await ctx.services.membership.currentOf(ctx.principal.userId) : null;
    return { user: toAppUserType(user), membership, merchant: membership?.merchant ?? null };
  }

  @Authorized('user')
  @Query(() => MerchantType, { nullable: true, description: 'The merchant the calling user acts for; null without a membership.' })
  myMerchant(@Ctx() ctx: MerchantContext): Promise<MerchantType | null> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    return ctx.principal.merchantId ? ctx.services.merchant.findById(ctx.principal.merchantId, ctx.principal) : Promise.resolve(null);
  }
}
