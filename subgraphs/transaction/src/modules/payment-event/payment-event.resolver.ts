import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { bankOfItem } from '@lib/domain/access/bank-scope';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { bankCodeOf } from '@subgraphs/transaction/src/bank-principal';
import {
  BankPaymentEventInput,
  BankPaymentEventToResolveInput,
  PaymentEventInput,
  PaymentEventOutcome,
  PaymentEventResult,
} from './payment-event.type';

@Resolver()
export class PaymentEventResolver {
  @Authorized('bank')
  @Mutation(() => PaymentEventResult, {
    description:
      "Stores a bank's payment event (the bank is the caller) and applies it; a repeated externalEventId answers duplicate_skipped with the first result once applied, and attempts a rejected one again.",
  })
  async recordPaymentEvent(
    @Arg('input', () => PaymentEventInput) input: PaymentEventInput,
    @Ctx() ctx: TransactionContext,
  ): Promise<PaymentEventResult> {
    const result = await ctx.services.paymentEvent.record(input, bankCodeOf(ctx.principal));
    if (result.status === 'rejected') {
      ctx.log.info({ eventId: result.eventId, eventType: input.eventType, errorCode: result.errorCode }, 'payment event rejected');
    }
    return result;
  }

  @Authorized('bank', 'banks')
  @Mutation(() => [PaymentEventOutcome], {
    description:
      "Stores and applies several banks' payment events at once (at most 500; each names its bank, one the caller acts for): the same results as recordPaymentEvent for each in turn, at the index of its input; an invalid one answers inputError.",
  })
  async recordPaymentEvents(
    @Arg('inputs', () => [BankPaymentEventInput]) inputs: BankPaymentEventInput[],
    @Ctx() ctx: TransactionContext,
  ): Promise<PaymentEventOutcome[]> {
    // Every bank is checked before anything is stored: one item of a bank the caller does not act for refuses the batch.
    const items = inputs.map((input) => ({ input, bankCode: bankOfItem(ctx.principal, input.bankCode).bankCode }));
    const outcomes = await ctx.services.paymentEvent.recordBatch(items, ctx.log);
    logRejections(ctx, inputs, outcomes);
    return outcomes;
  }

  @Authorized('bank', 'banks')
  @Mutation(() => [PaymentEventOutcome], {
    description:
      'recordPaymentEvents with each target resolved in this subgraph, from its copy of what the outlet and merchant subgraphs own (docs/decisions/0028-payment-event-and-settlement-intake.md): an event the copy cannot resolve answers unresolved and stores nothing.',
  })
  async recordPaymentEventsFromCopy(
    @Arg('inputs', () => [BankPaymentEventToResolveInput]) inputs: BankPaymentEventToResolveInput[],
    @Ctx() ctx: TransactionContext,
  ): Promise<PaymentEventOutcome[]> {
    const items = inputs.map((input) => ({ input, bank: bankOfItem(ctx.principal, input.bankCode) }));
    const outcomes = await ctx.services.paymentEvent.recordBatchFromCopy(items, ctx.log);
    logRejections(ctx, inputs, outcomes);
    return outcomes;
  }

  @Authorized('bank')
  @Mutation(() => PaymentEventResult, {
    description: "Marks an nmid.status_changed as applied in the outlet subgraph; idempotent. Only the calling bank's own events.",
  })
  markPaymentEventApplied(@Arg('eventId', () => ID) eventId: string, @Ctx() ctx: TransactionContext): Promise<PaymentEventResult> {
    return ctx.services.paymentEvent.markApplied(eventId, bankCodeOf(ctx.principal));
  }
}

function logRejections(ctx: TransactionContext, inputs: readonly PaymentEventInput[], outcomes: readonly PaymentEventOutcome[]): void {
  outcomes.forEach(({ result }, i) => {
    if (result?.status === 'rejected') {
      ctx.log.info({ eventId: result.eventId, eventType: inputs[i].eventType, errorCode: result.errorCode }, 'payment event rejected');
    }
  });
}
