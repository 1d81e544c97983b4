import { Arg, Authorized, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { MerchantContext } from '../../context';
import { MerchantType } from './merchant.type';

@Resolver(() => MerchantType)
export class MerchantResolver {
  @Authorized('service', 'internal', 'operator')
  @Query(() => MerchantType, { nullable: true })
  merchant(@Arg('id', () => ID) id: string, @Ctx() ctx: MerchantContext): Promise<MerchantType | null> {
    return ctx.services.merchant.findById(id);
  }
}
