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

/** A merchant whose KYC has expired is brought back by a renewal (renewMerchantKyc, `ops merchant:kyc-renew`). */
export class KycExpiredError extends AppError {
  constructor(expiredAt: Date) {
    super(`the merchant's KYC expired at ${expiredAt.toISOString()}: renew it first`, ErrorCode.CONFLICT, { reason: 'kyc_expired' });
  }
}

/** Only a verified (or expired) KYC can be renewed; a pending or rejected one is verified first. */
export class KycNotVerifiedError extends AppError {
  constructor(status: string) {
    super(`the merchant's KYC is ${status}, not verified`, ErrorCode.CONFLICT, { reason: 'kyc_not_verified' });
  }
}
