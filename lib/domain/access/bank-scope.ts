import { ForbiddenError } from '@lib/errors/app-error';
import type { Principal } from '@lib/auth/principal';

export type BankPrincipal = Extract<Principal, { kind: 'bank' }>;

/**
 * The bank an item of a batch acts for: `bankCode` must be the calling bank, or one of the banks of a
 * `banks` principal (the bank adapter's micro-batch). Each item is then scoped exactly as a call of that
 * bank alone would be. Anyone else, or a bank outside the batch, is refused.
 */
export function bankOfItem(principal: Principal, bankCode: string): BankPrincipal {
  const bank =
    principal.kind === 'bank'
      ? principal.bankCode === bankCode
        ? principal
        : undefined
      : principal.kind === 'banks'
        ? principal.banks.find((b) => b.bankCode === bankCode)
        : undefined;
  if (!bank) throw new ForbiddenError('this item names a bank the caller does not act for');
  return bank;
}

/** The banks a principal acts for: one for a bank, several for a batch, none for anyone else. */
export function banksOf(principal: Principal): BankPrincipal[] {
  if (principal.kind === 'bank') return [principal];
  if (principal.kind === 'banks') return principal.banks;
  return [];
}
