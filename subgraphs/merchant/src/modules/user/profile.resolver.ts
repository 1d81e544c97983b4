import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { UpdateProfileInput } from './profile.input';
import { UserProfileType } from './profile.type';

@Resolver()
export class ProfileResolver {
  @Authorized('user')
  @Query(() => UserProfileType, { description: 'The calling user and the merchant it has or is registering.' })
  viewerProfile(@Ctx() ctx: MerchantContext): Promise<UserProfileType> {
    return ctx.services.profile.profileOf(userIdOf(ctx));
  }

  @Authorized('user')
  @Mutation(() => UserProfileType, { description: 'Changes the calling user’s own profile; a changed email must be verified again.' })
  updateViewerProfile(
    @Arg('input', () => UpdateProfileInput) input: UpdateProfileInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<UserProfileType> {
    return ctx.services.profile.update(userIdOf(ctx), input);
  }
}

export function userIdOf(ctx: MerchantContext): string {
  if (ctx.principal.kind !== 'user') throw new ForbiddenError();
  return ctx.principal.userId;
}
