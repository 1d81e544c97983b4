import { OPERATOR_WRITES, assertOperatorRole } from '@lib/domain/access/operator-roles';
import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import type { LifecycleOutcome } from './merchant-lifecycle.service';
import { ChangeMerchantStatusInput, UpdateMerchantProfileInput } from './merchant.input';
import { toMerchantType } from './merchant.service';
import { MerchantType } from './merchant.type';

/** Lifecycle mutations: each is one call into MerchantLifecycleService, logged with the webhook it queued. */
@Resolver(() => MerchantType)
export class MerchantLifecycleResolver {
  @Authorized('internal', 'operator')
  @Mutation(() => MerchantType, {
    description:
      'Moves a merchant along its lifecycle: draft/inactive → active, active → suspended, suspended → active, active/suspended → deleted. Any other move is a CONFLICT (reason invalid_transition).',
  })
  async changeMerchantStatus(
    @Arg('input', () => ChangeMerchantStatusInput) input: ChangeMerchantStatusInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    const outcome = await ctx.services.lifecycle.changeStatus(input);
    return logged(ctx, 'merchant status changed', outcome, { reason: outcome.merchant.statusReason ?? null });
  }

  @Authorized('internal', 'operator')
  @Mutation(() => MerchantType, { description: 'Marks the merchant’s KYC verified (idempotent); may complete its first activation.' })
  async verifyMerchantKyc(@Arg('merchantId', () => ID) merchantId: string, @Ctx() ctx: MerchantContext): Promise<MerchantType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    return logged(ctx, 'merchant kyc verified', await ctx.services.lifecycle.verifyKyc(merchantId));
  }

  @Authorized('internal', 'operator')
  @Mutation(() => MerchantType, {
    description:
      'Renews the merchant’s KYC after a review: it holds until expiresAt (future, at most 10 years ahead). An expired KYC is verified again; a merchant suspended for kyc_expired comes back (merchant.reactivated, reason kyc_renewed). CONFLICT kyc_not_verified for a pending or rejected KYC.',
  })
  async renewMerchantKyc(
    @Arg('merchantId', () => ID) merchantId: string,
    @Arg('expiresAt', () => DateTimeResolver) expiresAt: Date,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    const outcome = await ctx.services.lifecycle.renewKyc({ merchantId, expiresAt });
    return logged(ctx, 'merchant kyc renewed', outcome, { kyc_expires_at: expiresAt.toISOString() });
  }

  @Authorized('internal', 'operator', 'bank')
  @Mutation(() => MerchantType, {
    description:
      'Records an NMID assigned to one of the merchant’s outlets (idempotent; the first one is the NMID banks see); may complete its first activation. Among banks only the merchant’s own tier-1 bank.',
  })
  async recordNmidAssignment(
    @Arg('merchantId', () => ID) merchantId: string,
    @Arg('nmid') nmid: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    return logged(ctx, 'merchant nmid recorded', await ctx.services.lifecycle.recordNmidAssignment(merchantId, nmid, ctx.principal), {
      nmid,
    });
  }

  @Authorized('internal', 'operator')
  @Mutation(() => MerchantType, {
    description: 'Changes name, legal name or address; a merchant its bank sees is announced (merchant.profile_updated).',
  })
  async updateMerchantProfile(
    @Arg('input', () => UpdateMerchantProfileInput) input: UpdateMerchantProfileInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    return logged(ctx, 'merchant profile changed', await ctx.services.lifecycle.updateProfile(input));
  }
}

function logged(ctx: MerchantContext, msg: string, outcome: LifecycleOutcome, extra: Record<string, unknown> = {}): MerchantType {
  const { merchant, previousStatus, webhook } = outcome;
  ctx.log.info(
    {
      merchant_id: merchant.id,
      from: previousStatus,
      to: merchant.status,
      ...extra,
      by: ctx.principal.kind,
      webhook_event_id: webhook?.eventId ?? null,
      webhook_event: webhook?.event ?? null,
    },
    msg,
  );
  return toMerchantType(merchant);
}
