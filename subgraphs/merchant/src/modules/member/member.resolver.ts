import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { assertUserMay } from '@lib/auth/user-scope';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { MerchantType } from '../merchant/merchant.type';
import { InviteMemberInput, MerchantMemberType, UpdateMemberInput } from './member.type';

/** Owners invite and manage every member; admins staff and viewers of their outlets (member.service.ts). */
@Resolver()
export class MemberResolver {
  @Authorized('user')
  @Mutation(() => MerchantMemberType, {
    description: 'Adds a person (by phone, creating the user if needed) to the caller’s merchant with a role and outlets.',
  })
  inviteMember(@Arg('input', () => InviteMemberInput) input: InviteMemberInput, @Ctx() ctx: MerchantContext): Promise<MerchantMemberType> {
    return ctx.services.member.invite(managerScope(ctx), input);
  }

  @Authorized('user')
  @Mutation(() => MerchantMemberType, { description: 'Changes a member’s role, outlets or device.' })
  updateMember(@Arg('input', () => UpdateMemberInput) input: UpdateMemberInput, @Ctx() ctx: MerchantContext): Promise<MerchantMemberType> {
    return ctx.services.member.update(managerScope(ctx), input);
  }

  @Authorized('user')
  @Mutation(() => MerchantMemberType, { description: 'Ends a membership (the user account stays). A merchant keeps at least one owner.' })
  removeMember(@Arg('memberId', () => ID) memberId: string, @Ctx() ctx: MerchantContext): Promise<MerchantMemberType> {
    return ctx.services.member.remove(managerScope(ctx), memberId);
  }
}

@Resolver(() => MerchantType)
export class MerchantMembersResolver {
  @Authorized('user', 'operator', 'internal')
  @FieldResolver(() => [MerchantMemberType], { description: 'Live members, oldest first. Owners and admins of the merchant; operators.' })
  members(@Root() merchant: MerchantType, @Ctx() ctx: MerchantContext): Promise<MerchantMemberType[]> {
    assertUserMay(ctx.principal, 'manage', { merchantId: merchant.id });
    return ctx.services.member.ofMerchant(merchant.id);
  }
}

function managerScope(ctx: MerchantContext) {
  const scope = assertUserMay(ctx.principal, 'manage');
  if (!scope) throw new ForbiddenError();
  return scope;
}
