import { Arg, Authorized, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { assertUserMay } from '@lib/domain/access/user-scope';
import { ForbiddenError, NotFoundError } from '@lib/errors/app-error';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import { MerchantType } from '../merchant/merchant.type';
import { PartnerConsentType } from './partner.type';

/**
 * Consent to partners, given by the merchant's owner from the app: a `consent` row of partner_merchant_access,
 * the same the partner API's scope reads on every request (not cached), so a grant or a revocation applies at once.
 */
@Resolver()
export class PartnerConsentResolver {
  @Authorized('user')
  @Mutation(() => PartnerConsentType, { description: 'Owners: lets the partner read the merchant through the partner API (idempotent).' })
  async grantPartnerConsent(
    @Arg('partnerCode', { description: "Code of the partner allowed to read the merchant's data." }) partnerCode: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<PartnerConsentType> {
    const merchantId = ownerMerchant(ctx);
    const granted = await ctx.services.partner.grant({ partnerCode, merchantId, type: 'consent' });
    ctx.log.info({ merchant_id: merchantId, partner_code: granted.partner_code, by: 'owner' }, 'partner consent granted');
    const consent = (await ctx.services.partner.consentsOf(merchantId)).find((c) => c.partnerCode === granted.partner_code);
    if (!consent) throw new NotFoundError('consent');
    return consent;
  }

  @Authorized('user')
  @Mutation(() => Boolean, {
    description: 'Owners: withdraws the consent; true when one was live. Referral and assignment grants are operators’ to end.',
  })
  async revokePartnerConsent(
    @Arg('partnerCode', { description: 'Code of the partner whose consent ends.' }) partnerCode: string,
    @Ctx() ctx: MerchantContext,
  ): Promise<boolean> {
    const merchantId = ownerMerchant(ctx);
    const { revoked } = await ctx.services.partner.ungrant({ partnerCode, merchantId, type: 'consent' });
    ctx.log.info({ merchant_id: merchantId, partner_code: partnerCode.toUpperCase(), revoked, by: 'owner' }, 'partner consent revoked');
    return revoked > 0;
  }
}

@Resolver(() => MerchantType)
export class MerchantConsentsResolver {
  @Authorized('user', 'operator', 'internal')
  @FieldResolver(() => [PartnerConsentType], { description: 'Live partner consents, oldest first (owners; operators).' })
  partnerConsents(@Root() merchant: MerchantType, @Ctx() ctx: MerchantContext): Promise<PartnerConsentType[]> {
    assertUserMay(ctx.principal, 'corporate', { merchantId: merchant.id });
    return ctx.services.partner.consentsOf(merchant.id);
  }
}

function ownerMerchant(ctx: MerchantContext): string {
  const scope = assertUserMay(ctx.principal, 'corporate');
  if (!scope) throw new ForbiddenError();
  return scope.merchantId;
}
