import { AppError, ErrorCode } from '@lib/errors/app-error';

/** Unknown, expired, or of a revoked or expired session: 401 `invalid_refresh_token`. */
export class InvalidRefreshTokenError extends AppError {
  constructor() {
    super('refresh token invalid or expired; log in again', ErrorCode.UNAUTHENTICATED, { reason: 'invalid_refresh_token' });
  }
}

/** A refresh token presented a second time (RFC 9700 §4.14.2): the whole session is revoked. */
export class RefreshTokenReusedError extends AppError {
  constructor() {
    super('refresh token already used; the session is revoked, log in again', ErrorCode.UNAUTHENTICATED, {
      reason: 'refresh_token_reused',
    });
  }
}

/** The device-login cancel link is unknown, used or expired. */
export class InvalidCancelTokenError extends AppError {
  constructor() {
    super('the link is invalid, expired or already used', ErrorCode.BAD_USER_INPUT, { reason: 'invalid_cancel_token' });
  }
}
