import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { MerchantMembershipType } from './membership.type';

@Resolver()
export class MembershipResolver {
  @Authorized('user')
  @Query(() => MerchantMembershipType, {
    nullable: true,
    description: 'The merchant the calling user acts for (active preferred, deleted never) with the role; null without one.',
  })
  viewerMembership(@Ctx() ctx: MerchantContext): Promise<MerchantMembershipType | null> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    return ctx.services.membership.currentOf(ctx.principal.userId);
  }
}
