import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { OPERATOR_WRITES, assertOperatorRole } from '@lib/domain/access/operator-roles';
import { BadInputError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { UserProfileType } from '../user/profile.type';
import { userIdOf } from '../user/profile.resolver';
import { MerchantRegistrationDecisionInput, ReviewMerchantStatusInput, SubmitMerchantRegistrationInput } from './registration.input';
import { MerchantRegistrationRequestType, MerchantReviewResultType } from './registration.type';

@Resolver()
export class RegistrationResolver {
  @Authorized('user')
  @Mutation(() => UserProfileType, {
    description:
      'Registers a merchant for the calling user (pending); at most one open registration per user (CONFLICT registration_exists).',
  })
  submitMerchantRegistration(
    @Arg('input', () => SubmitMerchantRegistrationInput) input: SubmitMerchantRegistrationInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<UserProfileType> {
    return ctx.services.registration.submit(userIdOf(ctx), input);
  }

  @Authorized('internal', 'operator')
  @Query(() => [MerchantRegistrationRequestType], {
    description: 'The review queue: open registration requests, oldest first (first 1..200).',
  })
  registrationQueue(
    @Arg('status', () => String, { nullable: true, description: 'pending or pending_review; both when omitted.' }) status: string | null,
    @Arg('first', () => Int, { defaultValue: 50, description: 'Page size.' }) first: number,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantRegistrationRequestType[]> {
    if (status != null && status !== 'pending' && status !== 'pending_review')
      throw new BadInputError('status must be pending or pending_review');
    return ctx.services.registration.queue(status ?? null, first);
  }

  @Authorized('internal', 'operator')
  @Mutation(() => MerchantReviewResultType, { description: 'Puts a registration under review (pending_review) with the reviewer’s notes.' })
  async reviewMerchantRegistration(
    @Arg('input', () => MerchantRegistrationDecisionInput) input: MerchantRegistrationDecisionInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantReviewResultType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    const result = await ctx.services.registration.review(input);
    ctx.log.info({ request_id: result.id, by: ctx.principal.kind }, 'merchant registration under review');
    return result;
  }

  @Authorized('internal', 'operator')
  @Mutation(() => MerchantReviewResultType, {
    description: 'Approves a registration: an active merchant (same id), its user the owner, the request deleted. Retry-safe.',
  })
  async approveMerchantRegistration(
    @Arg('input', () => MerchantRegistrationDecisionInput) input: MerchantRegistrationDecisionInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantReviewResultType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    const result = await ctx.services.registration.approve(input);
    ctx.log.info({ merchant_id: result.id, status: result.status, by: ctx.principal.kind }, 'merchant registration approved');
    return result;
  }

  @Authorized('internal', 'operator')
  @Mutation(() => MerchantReviewResultType, {
    description:
      'Internal status decision (core-api.md §3): active → suspended or deleted, suspended → active or deleted; anything else is a CONFLICT (invalid_transition).',
  })
  async reviewMerchantStatus(
    @Arg('input', () => ReviewMerchantStatusInput) input: ReviewMerchantStatusInput,
    @Ctx() ctx: MerchantContext,
  ): Promise<MerchantReviewResultType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    const result = await ctx.services.registration.changeStatus(input);
    ctx.log.info({ merchant_id: result.id, status: result.status, by: ctx.principal.kind }, 'merchant status decided');
    return result;
  }
}
