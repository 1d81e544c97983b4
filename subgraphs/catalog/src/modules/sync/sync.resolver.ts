import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import { parseSince } from '@lib/db/sync-pull';
import type { CatalogContext } from '@subgraphs/catalog/src/context';
import { MERCHANT_ARG } from '../pos/pos-args';
import { PushItemInput, PushResultType, SyncPageType } from './sync.type';

@Resolver()
export class SyncResolver {
  @Authorized('internal', 'user')
  @Query(() => SyncPageType, {
    description: 'Rows of categories, products, variants, product_stock or customers written after `since` (epoch ms).',
  })
  posChanges(
    @Arg('entity', { description: 'Which catalog entity to pull, e.g. categories or products (the error names every allowed one).' })
    entity: string,
    @Arg('since', { description: 'Epoch milliseconds (decimal): rows written in a later millisecond; "0" for everything.' })
    since: string,
    @Arg('limit', () => Int, { description: 'Page size.' }) limit: number,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<SyncPageType> {
    return ctx.services.sync.pull(ctx.principal, posMerchantOf(ctx.principal, merchantId), entity, parseSince(since), limit);
  }

  @Authorized('internal', 'user')
  @Mutation(() => PushResultType, { description: 'Applies a device outbox (≤ 500 items), idempotent per outbox id.' })
  pushPosChanges(
    @Arg('items', () => [PushItemInput]) items: PushItemInput[],
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: CatalogContext,
  ): Promise<PushResultType> {
    return ctx.services.sync.push(posMerchantOf(ctx.principal, merchantId, { family: 'sell' }), items);
  }
}
