import type { Principal } from '@lib/auth/principal';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import { AppError, BadInputError, ErrorCode } from '@lib/errors/app-error';

/** The most one call advances a sandbox clock: 30 days (docs/decisions/0015-demo-data-and-sandbox.md, "The sandbox clock"). */
export const SANDBOX_CLOCK_MAX_STEP_SECS = 30 * 86_400;

/** A live bank's credential on a sandbox operation: 403 `live_bank` on the bank API. */
export function liveBankError(): AppError {
  return new AppError('the sandbox operations are for sandbox bank credentials; a live bank’s keys reach no sandbox', ErrorCode.FORBIDDEN, {
    reason: 'live_bank',
  });
}

/**
 * The sandbox bank a sandbox operation acts for: a bank principal the bank adapter marked `sandbox` (from the
 * credential's bank). Anyone else — a live bank, an operator, an app — is refused, so a sandbox operation can only
 * ever reach rows of the calling sandbox bank. The merchant subgraph checks the bank's row again.
 */
export function sandboxBankOf(principal: Principal): BankPrincipal & { sandbox: true } {
  if (principal.kind !== 'bank' || principal.sandbox !== true) throw liveBankError();
  return principal as BankPrincipal & { sandbox: true };
}

/** One advance of a sandbox clock: a whole number of seconds from 1 to SANDBOX_CLOCK_MAX_STEP_SECS (BAD_USER_INPUT otherwise). */
export function assertClockStep(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > SANDBOX_CLOCK_MAX_STEP_SECS)
    throw new BadInputError(`seconds must be a whole number from 1 to ${SANDBOX_CLOCK_MAX_STEP_SECS}`);
}
