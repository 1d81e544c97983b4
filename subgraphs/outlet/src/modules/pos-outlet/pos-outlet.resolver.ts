import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { posMerchantOf } from '@lib/domain/access/pos-merchant';
import { userScopeOf, withinScope } from '@lib/domain/access/user-scope';
import { parseSince } from '@lib/db/sync-pull';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { CreatePosOutletInput, PosOutletSyncPageType, PosOutletType, UpdatePosOutletInput } from './pos-outlet.type';

const MERCHANT_ARG = { nullable: true, description: 'Required for internal callers; a user acts for the merchant of its principal.' };

/** Point-of-sale outlet fields: the merchant comes from the principal (lib/domain/access/pos-merchant.ts), never freely from the caller. */
@Resolver()
export class PosOutletResolver {
  @Authorized('internal', 'user')
  @Query(() => [PosOutletType], { description: 'Live outlets of the merchant.' })
  async posOutlets(
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<PosOutletType[]> {
    const outlets = await ctx.services.posOutlet.list(posMerchantOf(ctx.principal, merchantId));
    return withinScope(userScopeOf(ctx.principal), outlets, (o) => o.id);
  }

  @Authorized('internal', 'user')
  @Query(() => PosOutletType, { description: 'A live outlet of the merchant; NOT_FOUND for anything else.' })
  posOutlet(
    @Arg('id', () => ID, { description: 'Outlet id (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<PosOutletType> {
    return ctx.services.posOutlet.get(posMerchantOf(ctx.principal, merchantId, { outletId: id }), id);
  }

  @Authorized('internal', 'user')
  @Query(() => PosOutletType, {
    description:
      'A live outlet for its QRIS sticker: users need the manage family (owner, admin) on the outlet; NOT_FOUND for anything else.',
  })
  posOutletQris(
    @Arg('id', () => ID, { description: 'The outlet (UUID).' }) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<PosOutletType> {
    return ctx.services.posOutlet.get(posMerchantOf(ctx.principal, merchantId, { family: 'manage', outletId: id }), id);
  }

  @Authorized('internal', 'user')
  @Mutation(() => PosOutletType, { description: 'CONFLICT code_conflict when a live outlet of the merchant has the code.' })
  createPosOutlet(
    @Arg('input', () => CreatePosOutletInput) input: CreatePosOutletInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<PosOutletType> {
    return ctx.services.posOutlet.create(posMerchantOf(ctx.principal, merchantId, { family: 'corporate' }), input);
  }

  @Authorized('internal', 'user')
  @Mutation(() => PosOutletType, { description: 'CONFLICT nmid_taken when another outlet has the NMID.' })
  updatePosOutlet(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdatePosOutletInput) input: UpdatePosOutletInput,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<PosOutletType> {
    return ctx.services.posOutlet.update(posMerchantOf(ctx.principal, merchantId, { family: 'manage', outletId: id }), id, input);
  }

  @Authorized('internal', 'user')
  @Mutation(() => Boolean, { description: 'Soft delete; NOT_FOUND when not a live outlet of the merchant.' })
  deletePosOutlet(
    @Arg('id', () => ID) id: string,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<boolean> {
    return ctx.services.posOutlet.remove(posMerchantOf(ctx.principal, merchantId, { family: 'corporate' }), id);
  }

  @Authorized('internal', 'user')
  @Query(() => PosOutletSyncPageType, { description: 'Outlets written after `since` (epoch ms; deleted ones included).' })
  posOutletChanges(
    @Arg('since', { description: 'Epoch milliseconds (decimal): outlets written in a later millisecond; "0" for everything.' })
    since: string,
    @Arg('limit', () => Int, { description: 'Page size.' }) limit: number,
    @Arg('merchantId', () => ID, MERCHANT_ARG) merchantId: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<PosOutletSyncPageType> {
    return ctx.services.posOutlet.pull(ctx.principal, posMerchantOf(ctx.principal, merchantId), parseSince(since), limit);
  }
}
