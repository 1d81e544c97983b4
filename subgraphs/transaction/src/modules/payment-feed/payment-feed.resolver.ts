import { Arg, Authorized, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { PaymentFeedPageType } from './payment-feed.type';

/** The live payment feed (docs/decisions/0202-live-payment-events.md): read by the REST adapter's live streams. */
@Resolver()
export class PaymentFeedResolver {
  @Authorized('internal', 'user')
  @Query(() => PaymentFeedPageType, {
    description:
      'The merchant’s feed events after afterId (null: none, only the head), at most limit (1–1000), within 24 hours. A user sees its outlets’ events only.',
  })
  paymentFeed(
    @Arg('merchantId', () => ID, { nullable: true, description: 'Required for internal callers.' }) merchantId: string | null,
    @Arg('afterId', () => String, { nullable: true, description: 'The last event id the caller has; null for none.' })
    afterId: string | null,
    @Arg('limit', () => Int, { defaultValue: 200, description: 'At most this many events (1–1000).' }) limit: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<PaymentFeedPageType> {
    return ctx.services.paymentFeed.page(ctx.principal, posMerchantOf(ctx.principal, merchantId), afterId, limit);
  }

  @Authorized('internal')
  @Query(() => PaymentFeedPageType, {
    description:
      'Every merchant’s feed events after afterId (null: none, only the global head), at most limit (1–1000), within 24 hours: one read per wake-up for all the live streams of a REST process.',
  })
  paymentFeedAll(
    @Arg('afterId', () => String, { nullable: true, description: 'The last event id the caller has read; null for none.' })
    afterId: string | null,
    @Arg('limit', () => Int, { defaultValue: 500, description: 'At most this many events (1–1000).' }) limit: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<PaymentFeedPageType> {
    return ctx.services.paymentFeed.pageAll(afterId, limit);
  }
}
