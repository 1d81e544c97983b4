import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { assertUserMayRead } from '../../../../../lib/auth/user-scope';
import type { OutletContext } from '../../context';
import { MerchantRef } from '../../references/merchant.ref';
import { OutletType } from '../outlet/outlet.type';
import { TerminalType } from './terminal.type';

@Resolver(() => TerminalType)
export class TerminalResolver {
  @FieldResolver(() => OutletType)
  outlet(@Root() terminal: TerminalType, @Ctx() ctx: OutletContext): Promise<OutletType> {
    return ctx.services.outlet.getById(terminal.outletId);
  }
}

@Resolver(() => OutletType)
export class OutletTerminalsResolver {
  @FieldResolver(() => [TerminalType], { description: 'Every terminal of the outlet, inactive ones included, oldest first.' })
  terminals(@Root() outlet: OutletType, @Ctx() ctx: OutletContext): Promise<TerminalType[]> {
    return ctx.services.terminal.ofOutlet(outlet.id);
  }
}

@Resolver(() => MerchantRef)
export class MerchantTerminalResolver {
  @Authorized('service', 'internal', 'operator', 'bank', 'user')
  @FieldResolver(() => TerminalType, {
    nullable: true,
    description: 'The primary terminal: the most recently seen one that is not inactive, of the live outlets. A user principal needs the merchant as its own.',
  })
  terminal(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<TerminalType | null> {
    assertUserMayRead(ctx.principal, merchant.id);
    return ctx.services.terminal.primaryOfMerchant(merchant.id);
  }
}
