import type { Principal } from '@lib/auth/principal';
import { ForbiddenError } from '@lib/errors/app-error';

/** The calling bank's code: every bank-facing write takes its bank from the principal, never from input. */
export function bankCodeOf(principal: Principal): string {
  if (principal.kind !== 'bank') throw new ForbiddenError('only a bank can do this');
  return principal.bankCode;
}
