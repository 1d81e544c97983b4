import { Arg, Authorized, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { OrderSettlementResultInput, OrderSettlementType } from './order-settlement.type';

/** The settlement outbox, for the REST process's dispatcher (internal principals only). */
@Resolver()
export class OrderSettlementResolver {
  @Authorized('internal')
  @Mutation(() => [OrderSettlementType], {
    description: 'Claims paid QRIS payments whose sales order is still to be marked paid (a lease of 30 s, doubling per attempt).',
  })
  claimSalesOrderSettlements(
    @Arg('limit', () => Int, { defaultValue: 50, description: 'At most this many (1–500).' }) limit: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<OrderSettlementType[]> {
    return ctx.services.orderSettlement.claim(limit);
  }

  @Authorized('internal')
  @Mutation(() => Int, { description: 'Records what the catalog did with each claimed settlement; the number recorded.' })
  completeSalesOrderSettlements(
    @Arg('results', () => [OrderSettlementResultInput], { description: 'One per settlement applied.' })
    results: OrderSettlementResultInput[],
    @Ctx() ctx: TransactionContext,
  ): Promise<number> {
    return ctx.services.orderSettlement.complete(results);
  }
}
