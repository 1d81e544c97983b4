import { Arg, Authorized, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { OutletContext } from '../../context';
import { MerchantRef } from '../../references/merchant.ref';
import { OutletType } from './outlet.type';

@Resolver(() => OutletType)
export class OutletResolver {
  @Authorized('service', 'internal', 'operator')
  @Query(() => OutletType, { nullable: true })
  outlet(@Arg('id', () => ID) id: string, @Ctx() ctx: OutletContext): Promise<OutletType | null> {
    return ctx.services.outlet.findById(id);
  }
}

@Resolver(() => MerchantRef)
export class MerchantOutletsResolver {
  @Authorized('service', 'internal', 'operator')
  @FieldResolver(() => [OutletType], { description: 'Live outlets, the default outlet first.' })
  outlets(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<OutletType[]> {
    return ctx.services.outlet.ofMerchant(merchant.id);
  }
}
