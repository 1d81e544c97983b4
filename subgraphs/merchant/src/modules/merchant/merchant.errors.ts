import { AppError, ErrorCode } from '@lib/errors/app-error';

/** A status move the transition table does not allow (DESIGN.md §9). */
export class InvalidTransitionError extends AppError {
  constructor(from: string, to: string) {
    super(`cannot move a merchant from ${from} to ${to}`, ErrorCode.CONFLICT, { reason: 'invalid_transition' });
  }
}

/** Deleted is final: no profile, KYC or NMID changes afterwards. */
export class MerchantDeletedError extends AppError {
  constructor() {
    super('the merchant is deleted', ErrorCode.CONFLICT, { reason: 'merchant_deleted' });
  }
}

/** NMIDs are issued through the merchant's bank; a merchant without one cannot hold an NMID. */
export class MerchantWithoutBankError extends AppError {
  constructor() {
    super('the merchant has no bank', ErrorCode.CONFLICT, { reason: 'merchant_without_bank' });
  }
}

export class NmidTakenError extends AppError {
  constructor(nmid: string) {
    super(`nmid ${nmid} belongs to another merchant`, ErrorCode.CONFLICT, { reason: 'nmid_taken' });
  }
}
