import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { assertUserMay } from '@lib/domain/access/user-scope';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';
import { PspPairingType } from './psp-pairing.type';

@Resolver(() => MerchantRef)
export class MerchantPspPairingsResolver {
  @Authorized('service', 'internal', 'operator', 'user')
  @FieldResolver(() => [PspPairingType], {
    description: 'PSP pairings that are not deleted, oldest first. A user principal needs the merchant as its own.',
  })
  pspPairings(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<PspPairingType[]> {
    assertUserMay(ctx.principal, 'read', { merchantId: merchant.id });
    return ctx.services.pspPairing.ofMerchant(merchant.id);
  }
}
