import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/auth/pos-merchant';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { CreateQrisPaymentInput, QrisPaymentType } from './qris-payment.type';

const MERCHANT_ARG = { nullable: true, description: 'Required for internal callers; a user acts for the merchant of its principal.' };

/** Point-of-sale QRIS payments: the merchant comes from the principal (lib/auth/pos-merchant.ts); staff of the outlet may create. */
@Resolver()
export class QrisPaymentResolver {
  @Authorized('internal', 'user')
  @Mutation(() => QrisPaymentType, {
    description:
      'A dynamic QRIS for one sale. CONFLICT idempotency_key_reused for a key used with another body; CONFLICT qris_unavailable when the static payload is not a QRIS of the NMID.',
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
}
