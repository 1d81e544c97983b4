import { ForbiddenError } from '@lib/errors/app-error';
import type { Principal } from '@lib/auth/principal';

/**
 * Partner scope in the subgraphs other than merchant (defense in depth, docs/decisions/0023-tenant-scoping-in-subgraphs.md): a partner
 * principal only reaches a merchant's data when the partner adapter, after the merchant subgraph's
 * partnerMerchantAccess check, put that merchant into `merchantIds`. Other principals pass (their own checks apply).
 */
export function assertPartnerMayRead(principal: Principal, merchantId: string): void {
  if (principal.kind !== 'partner') return;
  if (!(principal.merchantIds ?? []).includes(merchantId)) throw new ForbiddenError('the merchant is outside the partner’s scope');
}
