import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { PaymentTargetType } from './payment-target.type';

@Resolver()
export class PaymentTargetResolver {
  @Authorized('internal', 'operator')
  @Query(() => PaymentTargetType, {
    nullable: true,
    description:
      'A gateway’s merchantId (outlet NMID, outlet MID or merchant UUID) and terminalId (TID, serial number or id); null when the merchant key matches nothing here.',
  })
  paymentTarget(
    @Arg('merchantKey', { description: 'An outlet’s NMID or MID, or a merchant id (UUID).' }) merchantKey: string,
    @Arg('terminalKey', () => String, { nullable: true, description: 'A terminal of that merchant by TID, serial number or id; optional.' })
    terminalKey: string | null,
    @Ctx() ctx: OutletContext,
  ): Promise<PaymentTargetType | null> {
    return ctx.services.paymentTarget.resolve(merchantKey, terminalKey);
  }
}
