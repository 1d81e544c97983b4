import { ForbiddenError } from '../errors/app-error';
import type { Principal } from './principal';

/**
 * User scope in the subgraphs other than merchant (defense in depth, like the partner scope): a user principal
 * reaches a merchant's data only when the core adapter, after the merchant subgraph answered the user's
 * membership (viewerMembership), narrowed the principal to that merchant. Other principals pass (their own
 * checks apply).
 */
export function assertUserMayRead(principal: Principal, merchantId: string): void {
  if (principal.kind !== 'user') return;
  if (principal.merchantId !== merchantId) throw new ForbiddenError('the merchant is not the user’s');
}
