import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import type { CatalogContext } from '@subgraphs/catalog/src/context';
import { MERCHANT_ARG } from '../pos/pos-args';
import { TillCloseInput, TillCloseType } from './till-close.type';

@Resolver(() => TillCloseType)
export class TillCloseResolver {
  @Authorized('internal', 'user')
  @Mutation(() => TillCloseType, {
    description:
      'Closes an outlet’s business day or a cashier’s shift (docs/decisions/0057-sales-orders-and-receipt-numbers.md): the sell family on the outlet; CONFLICT till_already_closed for a second close of the day or an overlapping shift of the cashier; CONFLICT idempotency_key_reused for a key used with another request.',
  })
  closePosTill(
    @Arg('input', () => TillCloseInput) input: TillCloseInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<TillCloseType> {
    const merchant = posMerchantOf(ctx.principal, merchantId, { family: 'sell', outletId: input.outletId });
    return ctx.services.tillClose.close(ctx.principal, merchant, input);
  }

  @Authorized('internal', 'user')
  @Query(() => [TillCloseType], { description: 'The merchant’s till closes, newest window first; a member sees its outlets’ only.' })
  posTillCloses(
    @Arg('outletId', () => ID, { nullable: true, description: "Only this outlet's closes." }) outletId: string | null,
    @Arg('from', () => DateTimeResolver, { nullable: true, description: 'Closes whose window ends after this instant.' }) from: Date | null,
    @Arg('before', () => DateTimeResolver, { nullable: true, description: 'Closes whose window starts before this instant.' })
    before: Date | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 200, default 50.' }) limit: number | null,
    @Arg('offset', () => Int, { nullable: true, description: 'Closes to skip.' }) offset: number | null,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<TillCloseType[]> {
    return ctx.services.tillClose.list(ctx.principal, posMerchantOf(ctx.principal, merchantId), { outletId, from, before, limit, offset });
  }

  @Authorized('internal', 'user')
  @Query(() => TillCloseType, { description: 'A till close of the merchant by id; FORBIDDEN for a member outside its outlet.' })
  posTillClose(
    @Arg('id', () => ID, { description: 'Till close id (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<TillCloseType> {
    return ctx.services.tillClose.get(ctx.principal, posMerchantOf(ctx.principal, merchantId), id);
  }
}
