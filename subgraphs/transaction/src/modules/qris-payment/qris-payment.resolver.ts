import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { CreateQrisPaymentInput, QrisPaymentType, QrisUnmatchedPaymentPageType } from './qris-payment.type';

const MERCHANT_ARG = { nullable: true, description: 'Required for internal callers; a user acts for the merchant of its principal.' };

/**
 * Point-of-sale QRIS payments: the merchant comes from the principal (lib/domain/access/pos-merchant.ts), the outlet's merchant,
 * NMID and static QRIS from this subgraph's data (QrisPaymentService.create); staff of the outlet may create.
 */
@Resolver()
export class QrisPaymentResolver {
  @Authorized('internal', 'user')
  @Mutation(() => QrisPaymentType, {
    description:
      "A dynamic QRIS for one sale at an outlet of the merchant: FORBIDDEN for another merchant's outlet or, for a user, one outside its outlets. The outlet's NMID and static QRIS are this subgraph's. CONFLICT idempotency_key_reused for a key used with another body; CONFLICT qris_unavailable when the outlet has no static QRIS (no NMID); CONFLICT sales_order_payment_pending when the order has a live payment.",
  })
  createQrisPayment(
    @Arg('input', () => CreateQrisPaymentInput) input: CreateQrisPaymentInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<QrisPaymentType> {
    const merchant = posMerchantOf(ctx.principal, merchantId, { family: 'sell', outletId: input.outletId });
    return ctx.services.qrisPayment.create(ctx.principal, merchant, input);
  }

  @Authorized('internal', 'user')
  @Query(() => QrisPaymentType, { description: 'A QRIS payment of the merchant; NOT_FOUND for anything else.' })
  qrisPayment(
    @Arg('id', () => ID, { description: 'The payment (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<QrisPaymentType> {
    return ctx.services.qrisPayment.get(ctx.principal, posMerchantOf(ctx.principal, merchantId), id);
  }

  @Authorized('internal', 'user')
  @Mutation(() => QrisPaymentType, {
    description:
      'Cancels a pending (or expired) payment; a cancelled one is answered as it is. CONFLICT qris_payment_paid for a paid one. Users: the sell family on its outlet.',
  })
  cancelQrisPayment(
    @Arg('id', () => ID, { description: 'The payment (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<QrisPaymentType> {
    return ctx.services.qrisPayment.cancel(ctx.principal, posMerchantOf(ctx.principal, merchantId, { family: 'sell' }), id);
  }

  @Authorized('operator', 'internal')
  @Query(() => QrisUnmatchedPaymentPageType, {
    description:
      'Bank payments that named one of our bill numbers but settled no dynamic QRIS payment (for reconciliation), newest first, keyset-paged.',
  })
  qrisUnmatchedPayments(
    @Arg('merchantId', () => ID, { nullable: true, description: 'Only this merchant’s.' }) merchantId: string | null,
    @Arg('outletId', () => ID, { nullable: true, description: 'Only this outlet’s.' }) outletId: string | null,
    @Arg('reason', () => String, {
      nullable: true,
      description: 'Only this reason: unknown_bill_number, other_outlet, amount_mismatch, expired, cancelled or already_paid.',
    })
    reason: string | null,
    @Arg('from', () => DateTimeResolver, { nullable: true, description: 'Paid (transaction_at) at or after this instant.' })
    from: Date | null,
    @Arg('before', () => DateTimeResolver, { nullable: true, description: 'Paid (transaction_at) before this instant.' })
    before: Date | null,
    @Arg('first', () => Int, { defaultValue: 50, description: 'Page size, 1 to 500.' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'nextCursor of the previous page.' }) after: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<QrisUnmatchedPaymentPageType> {
    return ctx.services.qrisPayment.unmatched({ merchantId, outletId, reason, from, before, first, after });
  }
}
