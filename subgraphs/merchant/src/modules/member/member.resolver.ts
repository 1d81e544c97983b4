import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { banksOf } from '@lib/domain/access/bank-scope';
import { assertUserMay } from '@lib/domain/access/user-scope';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { MerchantType } from '../merchant/merchant.type';
import { InviteMemberInput, MerchantMemberType, MerchantOwnerType, UpdateMemberInput } from './member.type';

/** Owners invite and manage every member; admins staff and viewers of their outlets (member.service.ts). */
@Resolver()
export class MemberResolver {
  @Authorized('user')
  @Mutation(() => MerchantMemberType, {
    description: 'Adds a person (by phone, creating the user if needed) to the caller’s merchant with a role and outlets.',
  })
  inviteMember(
    @Arg('input', () => InviteMemberInput, { description: 'Who to invite, with which role and outlets.' }) input: InviteMemberInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantMemberType> {
    return ctx.services.member.invite(managerScope(ctx), input);
  }

  @Authorized('user')
  @Mutation(() => MerchantMemberType, { description: 'Changes a member’s role, outlets or device.' })
  updateMember(
    @Arg('input', () => UpdateMemberInput, { description: 'The member and their new role or outlets.' }) input: UpdateMemberInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantMemberType> {
    return ctx.services.member.update(managerScope(ctx), input);
  }

  @Authorized('user')
  @Mutation(() => MerchantMemberType, { description: 'Ends a membership (the user account stays). A merchant keeps at least one owner.' })
  removeMember(
    @Arg('memberId', () => ID, { description: 'Membership id of the member to remove.' }) memberId: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantMemberType> {
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

  @Authorized('bank', 'banks')
  @FieldResolver(() => [MerchantOwnerType], {
    description:
      "The merchant's live owners, oldest first, for its bank (psp-api.md include_owners): names in full, phone and email masked. Empty for a merchant of another bank.",
  })
  owners(@Root() merchant: MerchantType, @Ctx() ctx: MerchantContext): Promise<MerchantOwnerType[]> {
    // The merchant reached the bank through its own scope already; a micro-batch ('banks') sees several banks'
    // merchants, so each merchant's owners go only to a bank of that merchant.
    if (!banksOf(ctx.principal).some((bank) => bank.bankCode === merchant.bankCode)) return Promise.resolve([]);
    return ctx.services.member.ownersOf(merchant.id);
  }
}

function managerScope(ctx: MerchantContext) {
  const scope = assertUserMay(ctx.principal, 'manage');
  if (!scope) throw new ForbiddenError();
  return scope;
}
