import type { UserPrincipal } from '@rest-adapters/core/auth/user-auth';
import { type MemberRole, type Membership, currentMembership } from '@rest-adapters/core/auth/user-auth';
import type { RouteRuntime } from '@lib/rest/route';

/**
 * The user's merchant (currentMembership) and the principal narrowed to it, which the outlet and transaction
 * subgraphs require before they answer a user principal; null when the user has no merchant.
 */
export async function actingForMerchant(
  runtime: RouteRuntime,
  principal: UserPrincipal,
): Promise<{ membership: Membership; acting: UserPrincipal } | null> {
  const membership = await currentMembership(runtime);
  if (!membership) return null;
  return {
    membership,
    acting: { ...principal, merchantId: membership.merchant.id, role: membership.role as MemberRole, outletIds: membership.outletIds },
  };
}
