import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { AccountSettingsInput, AccountSettingsType } from './account-settings.type';

@Resolver()
export class AccountSettingsResolver {
  @Authorized('user')
  @Query(() => AccountSettingsType, { description: "The calling user's settings (defaults when never saved)." })
  viewerAccountSettings(@Ctx() ctx: MerchantContext): Promise<AccountSettingsType> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    return ctx.services.accountSettings.of(ctx.principal.userId);
  }

  @Authorized('user')
  @Mutation(() => AccountSettingsType, {
    description: "Changes the signed-in user's notification and privacy settings; absent fields keep their value.",
  })
  updateAccountSettings(
    @Arg('input', { description: 'The settings to change.' }) input: AccountSettingsInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<AccountSettingsType> {
    if (ctx.principal.kind !== 'user') throw new ForbiddenError();
    return ctx.services.accountSettings.update(ctx.principal.userId, input);
  }
}
