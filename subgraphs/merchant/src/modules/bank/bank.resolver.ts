import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { BankCredentialType } from './bank.type';

@Resolver()
export class BankResolver {
  /** Only the REST adapters (service principals) verify bank signatures, so only they read secrets. */
  @Authorized('service')
  @Query(() => BankCredentialType, {
    nullable: true,
    description: "A bank key by id, with its secret (the bank adapter's signature check; service principals only).",
  })
  bankCredential(
    @Arg('keyId', { description: "Key id from the request's key-id header." }) keyId: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<BankCredentialType | null> {
    return ctx.services.bank.credential(keyId);
  }
}
