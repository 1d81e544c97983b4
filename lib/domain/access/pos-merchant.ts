import { BadInputError, ForbiddenError } from '@lib/errors/app-error';
import { UUID_PATTERN } from '@lib/federation/loaders';
import type { Principal } from '@lib/auth/principal';
import { type UserActionFamily, assertUserMay } from './user-scope';

/**
 * The merchant a point-of-sale field acts for, never chosen freely by the caller (docs/decisions/0053-pos-data-surfaces-and-catalog.md "Point of
 * sale"). An `internal` principal (the /poslite service surface, X-Merchant-ID) names it in the `merchantId`
 * argument; a `user` principal carries it, set by the core adapter after viewerMembership, and a `merchantId`
 * argument that differs is refused. Every other principal is refused. A user's role must allow `access.family`
 * (default `read`; lib/domain/access/user-scope.ts) on `access.outletId` when one is named.
 */
export function posMerchantOf(
  principal: Principal,
  merchantId: string | null | undefined,
  access: { family?: UserActionFamily; outletId?: string | null } = {},
): string {
  if (principal.kind === 'internal') {
    if (!merchantId || !UUID_PATTERN.test(merchantId)) throw new BadInputError('merchantId must be a UUID');
    return merchantId.toLowerCase();
  }
  if (principal.kind === 'user') {
    if (!principal.merchantId) throw new ForbiddenError('the user acts for no merchant');
    if (merchantId != null && merchantId.toLowerCase() !== principal.merchantId.toLowerCase()) {
      throw new ForbiddenError('merchantId differs from the merchant of the user');
    }
    assertUserMay(principal, access.family ?? 'read', { outletId: access.outletId });
    return principal.merchantId.toLowerCase();
  }
  throw new ForbiddenError();
}
