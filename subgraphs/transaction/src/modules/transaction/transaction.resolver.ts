import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { TransactionContext } from '../../context';
import { MerchantRef } from '../../references/merchant.ref';
import { MAX_LATEST } from './transaction.service';
import { TransactionType } from './transaction.type';

@Resolver(() => TransactionType)
export class TransactionResolver {
  @Authorized('service', 'internal', 'operator')
  @Query(() => TransactionType, { nullable: true })
  transaction(@Arg('id', () => ID) id: string, @Ctx() ctx: TransactionContext): Promise<TransactionType | null> {
    return ctx.services.transaction.findById(id);
  }
}

@Resolver(() => MerchantRef)
export class MerchantTransactionsResolver {
  @Authorized('service', 'internal', 'operator')
  @FieldResolver(() => [TransactionType], { description: `The latest transactions, newest first (at most ${MAX_LATEST}).` })
  latestTransactions(
    @Root() merchant: MerchantRef,
    @Arg('last', () => Int, { defaultValue: 20 }) last: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionType[]> {
    return ctx.services.transaction.latestOfMerchant(merchant.id, last);
  }
}
