import { Arg, Authorized, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { assertUserMay } from '@lib/domain/access/user-scope';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';
import { MAX_ACTIVITY } from './device-activity.service';
import { DeviceActivityLogType } from './device-activity.type';

@Resolver(() => MerchantRef)
export class MerchantDeviceActivityResolver {
  @Authorized('service', 'internal', 'operator', 'user')
  @FieldResolver(() => [DeviceActivityLogType], {
    description: `The latest device activity, newest first (at most ${MAX_ACTIVITY}). A user principal needs the merchant as its own.`,
  })
  deviceActivityLogs(
    @Root() merchant: MerchantRef,
    @Arg('last', () => Int, { defaultValue: 20 }) last: number,
    @Ctx() ctx: OutletContext,
  ): Promise<DeviceActivityLogType[]> {
    assertUserMay(ctx.principal, 'read', { merchantId: merchant.id });
    return ctx.services.deviceActivity.latestOfMerchant(merchant.id, last);
  }
}
