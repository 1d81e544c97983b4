import type { OperatorRole } from '@lib/auth/operator-token';
import type { Principal } from '@lib/auth/principal';
import { ForbiddenError } from '@lib/errors/app-error';

/**
 * What operators (internal dashboards) may do, by the roles their token's `roles` claim carries (docs/graphql.md
 * "Operator roles"). Every operator may read; each write family names the roles allowed besides `admin`.
 */
export const OPERATOR_WRITES = {
  /** Merchant status changes with a reason, KYC verification, profile corrections, NMID records. */
  merchantLifecycle: ['admin', 'reviewer'],
  /** Partners, their credentials and merchant grants. */
  partners: ['admin', 'partner-manager'],
  /** Banks, their keys and webhook endpoints. */
  banks: ['admin', 'bank-manager'],
  /** Re-sending webhook deliveries. */
  webhookRedelivery: ['admin', 'bank-manager', 'support'],
  /** Resolving and annotating reconciliation differences (docs/decisions/0242-daily-reconciliation.md). */
  reconciliation: ['admin', 'support'],
} as const satisfies Record<string, readonly OperatorRole[]>;

/** FORBIDDEN for an operator without one of `roles`; other principals pass (their kinds are checked by @Authorized). */
export function assertOperatorRole(principal: Principal, roles: readonly OperatorRole[]): void {
  if (principal.kind !== 'operator') return;
  if (!principal.roles.some((role) => (roles as readonly string[]).includes(role))) {
    throw new ForbiddenError(`needs one of the operator roles ${roles.join(', ')}`);
  }
}
