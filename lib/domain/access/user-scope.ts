import { ForbiddenError } from '@lib/errors/app-error';
import type { Principal } from '@lib/auth/principal';

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;
export type MemberRole = NonNullable<UserPrincipal['role']>;

/**
 * What an app user may do, by enterprise role (partner-api.md §1, docs/graphql.md "Roles"). Each family names
 * the least role that may perform it; roles are ordered owner > admin > staff > viewer.
 * - `read`: see the merchant's data within the member's outlets (every role).
 * - `sell`: the daily cashier's writes at an outlet (POS sales, stock movements, sync push, voids).
 * - `manage`: outlet management within the member's outlets: devices, outlet settings, catalog, outlet staff.
 * - `corporate`: the merchant as a whole: create and delete outlets, partner consent, any member.
 */
export type UserActionFamily = 'read' | 'sell' | 'manage' | 'corporate';

const RANK: Record<MemberRole, number> = { viewer: 0, staff: 1, admin: 2, owner: 3 };
const LEAST_ROLE: Record<UserActionFamily, MemberRole> = { read: 'viewer', sell: 'staff', manage: 'admin', corporate: 'owner' };

/** A user principal acting for a merchant: the merchant, its role and outlet scope are set by the gateway or core adapter. */
export interface MemberScope {
  userId: string;
  merchantId: string;
  role: MemberRole;
  /** Outlets the member may reach; null = all (owners always, others when assigned none). */
  outletIds: string[] | null;
  terminalId: string | null;
}

/** The member scope of a user principal; FORBIDDEN for a user without a merchant (sees no merchant data). */
export function memberScopeOf(principal: UserPrincipal): MemberScope {
  if (!principal.merchantId || !principal.role) throw new ForbiddenError('the user acts for no merchant');
  const outletIds = principal.role === 'owner' || !principal.outletIds?.length ? null : principal.outletIds.map((id) => id.toLowerCase());
  return {
    userId: principal.userId,
    merchantId: principal.merchantId.toLowerCase(),
    role: principal.role,
    outletIds,
    terminalId: principal.role === 'staff' ? (principal.terminalId ?? null) : null,
  };
}

export function roleAllows(role: MemberRole, family: UserActionFamily): boolean {
  return RANK[role] >= RANK[LEAST_ROLE[family]];
}

export function roleOutranks(role: MemberRole, other: MemberRole): boolean {
  return RANK[role] > RANK[other];
}

/**
 * For user principals: the scope, after checking the role allows `family` on `merchantId` (when given) and, for an
 * outlet-bound action, that `outletId` is one of the member's outlets. Other principal kinds return null (their own
 * checks apply: @Authorized kinds, operator roles, partner scope).
 */
export function assertUserMay(
  principal: Principal,
  family: UserActionFamily,
  target: { merchantId?: string | null; outletId?: string | null } = {},
): MemberScope | null {
  if (principal.kind !== 'user') return null;
  const scope = memberScopeOf(principal);
  if (target.merchantId != null && target.merchantId.toLowerCase() !== scope.merchantId) {
    throw new ForbiddenError('the merchant is not the user’s');
  }
  if (!roleAllows(scope.role, family)) throw new ForbiddenError(`the ${scope.role} role may not do this (${family})`);
  if (target.outletId != null && !outletInScope(scope, target.outletId))
    throw new ForbiddenError('the outlet is outside the user’s outlets');
  return scope;
}

/** Which rows of a merchant a reader sees: all (null), or an app member's outlets (null: all) and device (null: any). */
export type Visibility = Pick<MemberScope, 'outletIds' | 'terminalId'> | null;

/**
 * The one scope rule of every read of a merchant's rows (decision 0061): a user needs the read family on
 * `merchantId` (and on `outletId` when one is named, else FORBIDDEN) and sees its outlets and device only. Other
 * principals see every row (their own checks apply).
 */
export function readVisibility(principal: Principal, target: { merchantId: string; outletId?: string | null }): Visibility {
  const scope = assertUserMay(principal, 'read', target);
  return scope && { outletIds: scope.outletIds, terminalId: scope.terminalId };
}

/** The member scope of a user principal acting for a merchant; null for every other principal. */
export function userScopeOf(principal: Principal): MemberScope | null {
  return principal.kind === 'user' ? memberScopeOf(principal) : null;
}

/**
 * For lists filtered by one optional outlet: the outlet an outlet-bound member's list is limited to when none was
 * named (their only outlet); FORBIDDEN when they have several (they must name one). Null when anything goes.
 */
export function soleOutletOf(principal: Principal): string | null {
  const scope = userScopeOf(principal);
  if (!scope || scope.outletIds === null) return null;
  if (scope.outletIds.length === 1) return scope.outletIds[0];
  throw new ForbiddenError('name one of your outlets (outletId)');
}

export function outletInScope(scope: MemberScope, outletId: string): boolean {
  return scope.outletIds === null || scope.outletIds.includes(outletId.toLowerCase());
}

/**
 * The test of `withinScope` for one row, compiled once (a set of outlets): for a long-lived reader that checks many
 * rows, e.g. a live stream (lib/events/live-feed.ts).
 */
export function scopeTest(scope: MemberScope): (outletId: string | null, terminalId: string | null) => boolean {
  const outlets = scope.outletIds === null ? null : new Set(scope.outletIds);
  const terminal = scope.terminalId;
  return (outletId, terminalId) =>
    (outlets === null || (outletId !== null && outlets.has(outletId.toLowerCase()))) && (terminal === null || terminalId === terminal);
}

/** Keeps the rows the member may see (by outlet, and a device-bound staff member's own device). */
export function withinScope<T>(
  scope: MemberScope | null,
  rows: T[],
  outletOf: (row: T) => string | null,
  terminalOf?: (row: T) => string | null,
): T[] {
  if (!scope) return rows;
  return rows.filter((row) => {
    const outletId = outletOf(row);
    if (scope.outletIds !== null && (outletId === null || !scope.outletIds.includes(outletId.toLowerCase()))) return false;
    return !(terminalOf && scope.terminalId && terminalOf(row) !== scope.terminalId);
  });
}
