import { AppError, ErrorCode } from '@lib/errors/app-error';

/**
 * OTP failures (core-api.md leaves them open; docs/decisions/0041-codes-and-device-trust.md lists them). `reason` is the REST code.
 * Unknown challenges and wrong codes are the same answer, so a request id cannot be probed.
 */
export class InvalidOtpError extends AppError {
  constructor(remaining?: number) {
    super(remaining === undefined ? 'the code is not valid' : `the code is not valid (${remaining} tries left)`, ErrorCode.BAD_USER_INPUT, {
      reason: 'invalid_otp',
    });
  }
}

/** Past its 300 s, already used, or replaced by a newer code: request a new one. */
export class OtpExpiredError extends AppError {
  constructor() {
    super('the code has expired or was already used; request a new one', ErrorCode.BAD_USER_INPUT, { reason: 'otp_expired' });
  }
}

/** Five wrong tries: the code is dead. */
export class OtpAttemptsExceededError extends AppError {
  constructor() {
    super('too many wrong codes; request a new one', ErrorCode.RATE_LIMITED, { reason: 'otp_attempts_exceeded' });
  }
}

/** A new code within 60 s of the previous one. */
export class OtpCooldownError extends AppError {
  constructor(retryAfterSecs: number) {
    super(`a code was sent recently; retry in ${retryAfterSecs} s`, ErrorCode.RATE_LIMITED, { reason: 'otp_cooldown', retryAfterSecs });
  }
}

/** The hourly cap of codes per phone (or user) or per client address is reached. */
export class OtpRateLimitedError extends AppError {
  constructor(retryAfterSecs: number) {
    super(`too many codes requested; retry in ${retryAfterSecs} s`, ErrorCode.RATE_LIMITED, { reason: 'otp_rate_limited', retryAfterSecs });
  }
}
