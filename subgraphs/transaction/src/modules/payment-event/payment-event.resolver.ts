import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { TransactionContext } from '../../context';
import { bankCodeOf } from '../../bank-principal';
import { PaymentEventInput, PaymentEventResult } from './payment-event.type';

@Resolver()
export class PaymentEventResolver {
  @Authorized('bank')
  @Mutation(() => PaymentEventResult, {
    description:
      "Stores a bank's payment event (the bank is the caller) and applies it; a repeated externalEventId answers duplicate_skipped with the first result.",
  })
  async recordPaymentEvent(@Arg('input', () => PaymentEventInput) input: PaymentEventInput, @Ctx() ctx: TransactionContext): Promise<PaymentEventResult> {
    const result = await ctx.services.paymentEvent.record(input, bankCodeOf(ctx.principal));
    if (result.status === 'rejected') {
      ctx.log.info({ eventId: result.eventId, eventType: input.eventType, errorCode: result.errorCode }, 'payment event rejected');
    }
    return result;
  }

  @Authorized('bank')
  @Mutation(() => PaymentEventResult, {
    description: 'Marks an nmid.status_changed as applied in the outlet subgraph; idempotent. Only the calling bank\'s own events.',
  })
  markPaymentEventApplied(@Arg('eventId', () => ID) eventId: string, @Ctx() ctx: TransactionContext): Promise<PaymentEventResult> {
    return ctx.services.paymentEvent.markApplied(eventId, bankCodeOf(ctx.principal));
  }
}
