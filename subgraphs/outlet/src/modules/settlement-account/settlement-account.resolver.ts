import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { Principal } from '@lib/auth/principal';
import { OPERATOR_WRITES, assertOperatorRole } from '@lib/domain/access/operator-roles';
import { assertUserMay } from '@lib/domain/access/user-scope';
import { BadInputError } from '@lib/errors/app-error';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';
import { OutletType } from '../outlet/outlet.type';
import {
  SetSettlementAccountInput,
  SettlementAccountAuditEntryType,
  SettlementAccountScopeInput,
  SettlementAccountSettingType,
  SettlementAccountType,
} from './settlement-account.type';

/** Whether the caller reads account numbers in full: the owner, operators, the merchant's bank, internal services. */
function seesFullNumber(principal: Principal): boolean {
  return principal.kind === 'user' ? principal.role === 'owner' : principal.kind !== 'partner' && principal.kind !== 'anonymous';
}

/** The merchant a write is for: an app user's own unless named; operators and services must name it. */
function merchantOf(principal: Principal, merchantId: string | null | undefined): string {
  const id = merchantId ?? (principal.kind === 'user' ? principal.merchantId : null);
  if (!id) throw new BadInputError('merchantId is required');
  return id.toLowerCase();
}

/** Settlement accounts (docs/decisions/0238-settlement-accounts.md): the owner's and operators' writes. */
@Resolver(() => SettlementAccountSettingType)
export class SettlementAccountResolver {
  @Authorized('user', 'operator', 'internal')
  @Mutation(() => SettlementAccountSettingType, {
    description:
      'Sets the corporate settlement account, or an outlet’s own (outletId). Owner or operator (admin, reviewer) only. A first account is effective at once; any other is held for the cooling-off (SETTLEMENT_ACCOUNT_COOLING_OFF_HOURS, 48 h) while the previous one stays effective, and every owner is told by push, email and messaging. The same input again changes nothing.',
  })
  setSettlementAccount(
    @Arg('input', () => SetSettlementAccountInput, { description: 'The scope (merchant, outlet or corporate) and the account.' })
    input: SetSettlementAccountInput,
    @Ctx() ctx: OutletContext,
  ): Promise<SettlementAccountSettingType> {
    const merchantId = merchantOf(ctx.principal, input.merchantId);
    assertUserMay(ctx.principal, 'corporate', { merchantId });
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    return ctx.services.settlementAccount.set(ctx.principal, {
      merchantId,
      outletId: input.outletId ?? null,
      bankCode: input.bankCode,
      accountNumber: input.accountNumber,
      holderName: input.holderName,
    });
  }

  @Authorized('user', 'operator', 'internal')
  @Mutation(() => SettlementAccountSettingType, {
    description:
      'Cancels the pending change of the corporate account or an outlet’s own during its cooling-off: the previous account stays effective and the owners are told. Owner or operator (admin, reviewer) only. Nothing pending: nothing changes.',
  })
  cancelSettlementAccountChange(
    @Arg('input', () => SettlementAccountScopeInput, { description: 'The scope whose pending change is cancelled.' })
    input: SettlementAccountScopeInput,
    @Ctx() ctx: OutletContext,
  ): Promise<SettlementAccountSettingType> {
    const merchantId = merchantOf(ctx.principal, input.merchantId);
    assertUserMay(ctx.principal, 'corporate', { merchantId });
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    return ctx.services.settlementAccount.cancel(ctx.principal, { merchantId, outletId: input.outletId ?? null });
  }
}

/** The merchant's corporate account and the audit of its accounts. */
@Resolver(() => MerchantRef)
export class MerchantSettlementAccountResolver {
  @Authorized('user', 'operator', 'internal', 'service')
  @FieldResolver(() => SettlementAccountSettingType, {
    description:
      'The corporate (pooled) settlement account now and its pending change; outlets without their own account are paid into it. Every member reads it; the number is in full for the owner and operators only.',
  })
  settlementAccount(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<SettlementAccountSettingType> {
    assertUserMay(ctx.principal, 'read', { merchantId: merchant.id });
    return ctx.services.settlementAccount.setting(merchant.id.toLowerCase(), null, seesFullNumber(ctx.principal));
  }

  @Authorized('user', 'operator', 'internal')
  @FieldResolver(() => [SettlementAccountAuditEntryType], {
    description: 'Who requested or cancelled which settlement account and when (accounts masked), newest first. Owner and operators.',
  })
  settlementAccountAudit(
    @Root() merchant: MerchantRef,
    @Arg('limit', () => Int, { defaultValue: 50, description: '1 to 200.' }) limit: number,
    @Ctx() ctx: OutletContext,
  ): Promise<SettlementAccountAuditEntryType[]> {
    assertUserMay(ctx.principal, 'corporate', { merchantId: merchant.id });
    return ctx.services.settlementAccount.auditOf(merchant.id.toLowerCase(), limit);
  }
}

/** An outlet's own account and the one it is paid into. */
@Resolver(() => OutletType)
export class OutletSettlementAccountResolver {
  @Authorized('user', 'operator', 'internal', 'service')
  @FieldResolver(() => SettlementAccountSettingType, {
    description: 'The outlet’s own settlement account now and its pending change (none: it is paid into the corporate account).',
  })
  settlementAccount(@Root() outlet: OutletType, @Ctx() ctx: OutletContext): Promise<SettlementAccountSettingType> {
    assertUserMay(ctx.principal, 'read', { merchantId: outlet.merchant.id, outletId: outlet.id });
    return ctx.services.settlementAccount.setting(outlet.merchant.id.toLowerCase(), outlet.id, seesFullNumber(ctx.principal));
  }

  @Authorized('user', 'operator', 'internal', 'service', 'bank', 'banks')
  @FieldResolver(() => SettlementAccountType, {
    nullable: true,
    description:
      'The account the outlet is paid into now: its own, else the corporate one (`source` says which); null when neither is set. A change in its cooling-off is not effective yet.',
  })
  effectiveSettlementAccount(@Root() outlet: OutletType, @Ctx() ctx: OutletContext): Promise<SettlementAccountType | null> {
    assertUserMay(ctx.principal, 'read', { merchantId: outlet.merchant.id, outletId: outlet.id });
    return ctx.services.settlementAccount.effective(outlet.id, seesFullNumber(ctx.principal));
  }
}
