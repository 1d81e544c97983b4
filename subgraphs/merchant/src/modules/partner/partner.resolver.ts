import { Arg, Authorized, Ctx, ID, Query, Resolver } from 'type-graphql';
import { ForbiddenError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { PartnerAccessType, PartnerCredentialType, PartnerMerchantType } from './partner.type';

@Resolver()
export class PartnerResolver {
  /** The token endpoint's check (service principals only): the credential, or null for any failure. */
  @Authorized('service')
  @Query(() => PartnerCredentialType, {
    nullable: true,
    description: 'A JWT-mode credential whose secret matches; null when unknown, revoked, HMAC-mode or the secret is wrong.',
  })
  verifyPartnerCredential(
    @Arg('credentialKey', { description: "The credential's public key (pk_…)." }) credentialKey: string,
    @Arg('credentialSecret', { description: 'The secret issued with it.' }) credentialSecret: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<PartnerCredentialType | null> {
    return ctx.services.partner.verifyCredential(credentialKey, credentialSecret);
  }

  /** Status and (HMAC mode) secret of a credential, for the adapters' request verification. */
  @Authorized('service')
  @Query(() => PartnerCredentialType, {
    nullable: true,
    description: "A partner credential by key (the partner adapter's authentication; service principals only).",
  })
  partnerCredential(
    @Arg('credentialKey', { description: "The credential's public key (pk_…)." }) credentialKey: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<PartnerCredentialType | null> {
    return ctx.services.partner.credential(credentialKey);
  }

  @Authorized('partner')
  @Query(() => PartnerAccessType, {
    nullable: true,
    description: 'Why the merchant is in the calling partner’s scope; null when it is not.',
  })
  partnerMerchantAccess(
    @Arg('merchantId', () => ID, { description: 'Merchant id (UUID).' }) merchantId: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<PartnerAccessType | null> {
    if (ctx.principal.kind !== 'partner') throw new ForbiddenError();
    return ctx.services.partner.accessOf(ctx.principal.partnerId, merchantId);
  }

  @Authorized('partner')
  @Query(() => [PartnerMerchantType], {
    description:
      'Merchants in the calling partner’s scope (referral, consent, assignment; deleted merchants left out), oldest grant first; merchantIds narrows it.',
  })
  partnerMerchants(
    @Arg('merchantIds', () => [ID], { nullable: true, description: 'Only these merchants; every merchant in scope when omitted.' })
    merchantIds: string[] | null,
    @Ctx() ctx: MerchantContext,
  ): Promise<PartnerMerchantType[]> {
    if (ctx.principal.kind !== 'partner') throw new ForbiddenError();
    return ctx.services.partner.merchantsOf(ctx.principal.partnerId, merchantIds ?? null);
  }
}
