import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { assertUserMay, userScopeOf, withinScope } from '@lib/domain/access/user-scope';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';
import { OutletType } from '../outlet/outlet.type';
import { TerminalType } from './terminal.type';

@Resolver(() => TerminalType)
export class TerminalResolver {
  @FieldResolver(() => OutletType, { description: 'The outlet the terminal belongs to.' })
  outlet(@Root() terminal: TerminalType, @Ctx() ctx: OutletContext): Promise<OutletType> {
    return ctx.services.outlet.getById(terminal.outletId);
  }
}

@Resolver(() => OutletType)
export class OutletTerminalsResolver {
  @FieldResolver(() => [TerminalType], { description: 'Every terminal of the outlet, inactive ones included, oldest first.' })
  async terminals(@Root() outlet: OutletType, @Ctx() ctx: OutletContext): Promise<TerminalType[]> {
    const terminals = await ctx.services.terminal.ofOutlet(outlet.id);
    return withinScope(
      userScopeOf(ctx.principal),
      terminals,
      (t) => t.outletId,
      (t) => t.id,
    );
  }
}

@Resolver(() => MerchantRef)
export class MerchantTerminalResolver {
  @Authorized('service', 'internal', 'operator', 'bank', 'banks', 'user')
  @FieldResolver(() => TerminalType, {
    nullable: true,
    description:
      'The primary terminal: the most recently seen one that is not inactive, of the live outlets. A user principal needs the merchant as its own.',
  })
  terminal(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<TerminalType | null> {
    assertUserMay(ctx.principal, 'read', { merchantId: merchant.id });
    return ctx.services.terminal.primaryOfMerchant(merchant.id);
  }

  @Authorized('service', 'internal', 'operator', 'user')
  @FieldResolver(() => [TerminalType], {
    description:
      'Every terminal of the live outlets, oldest first. An app user sees those of its outlets (a device-bound staff member, its device).',
  })
  async terminals(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<TerminalType[]> {
    const scope = assertUserMay(ctx.principal, 'read', { merchantId: merchant.id });
    return withinScope(
      scope,
      await ctx.services.terminal.ofMerchant(merchant.id),
      (t) => t.outletId,
      (t) => t.id,
    );
  }
}
