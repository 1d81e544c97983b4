import { ForbiddenError } from '../errors/app-error';
import type { Principal } from './principal';

/**
 * Roles of operators (internal dashboards), carried in the operator token's `roles` claim (docs/graphql.md
 * "Operator roles"). Every operator may read; each write family names the roles allowed besides `admin`.
 */
export const OPERATOR_ROLES = ['admin', 'reviewer', 'support', 'partner-manager', 'bank-manager'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const OPERATOR_WRITES = {
  /** Merchant status changes with a reason, KYC verification, profile corrections, NMID records. */
  merchantLifecycle: ['admin', 'reviewer'],
  /** Partners, their credentials and merchant grants. */
  partners: ['admin', 'partner-manager'],
  /** Banks, their keys and webhook endpoints. */
  banks: ['admin', 'bank-manager'],
  /** Re-sending webhook deliveries. */
  webhookRedelivery: ['admin', 'bank-manager', 'support'],
} as const satisfies Record<string, readonly OperatorRole[]>;

/** FORBIDDEN for an operator without one of `roles`; other principals pass (their kinds are checked by @Authorized). */
export function assertOperatorRole(principal: Principal, roles: readonly OperatorRole[]): void {
  if (principal.kind !== 'operator') return;
  if (!principal.roles.some((role) => (roles as readonly string[]).includes(role))) {
    throw new ForbiddenError(`needs one of the operator roles ${roles.join(', ')}`);
  }
}
