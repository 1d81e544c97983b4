import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { userIdOf } from '../user/profile.resolver';
import { FeedbackType, SubmitFeedbackInput } from './feedback.type';

@Resolver()
export class FeedbackResolver {
  @Authorized('user')
  @Mutation(() => FeedbackType, { description: 'Feedback from the calling user, kept with the merchant it acts for.' })
  submitFeedback(@Arg('input', () => SubmitFeedbackInput) input: SubmitFeedbackInput, @Ctx() ctx: MerchantContext): Promise<FeedbackType> {
    return ctx.services.feedback.submit(userIdOf(ctx), input);
  }
}
