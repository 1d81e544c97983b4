import { ErrorCode } from '../errors/app-error';
import { HttpError } from './error-body';

/** Seconds a client should wait before retrying when a dependency is down. */
export const UNAVAILABLE_RETRY_SECS = 5;

/**
 * The one table from GraphQL `extensions.code` to the documented HTTP status and error code. Domain
 * codes (sku_conflict, …) are added here by their modules. Anything unknown is a 500 internal_error.
 */
const TABLE: Record<string, { status: number; code: string }> = {
  [ErrorCode.BAD_USER_INPUT]: { status: 400, code: 'bad_request' },
  [ErrorCode.UNAUTHENTICATED]: { status: 401, code: 'unauthorized' },
  [ErrorCode.FORBIDDEN]: { status: 403, code: 'forbidden' },
  [ErrorCode.NOT_FOUND]: { status: 404, code: 'not_found' },
  [ErrorCode.CONFLICT]: { status: 409, code: 'conflict' },
  [ErrorCode.RATE_LIMITED]: { status: 429, code: 'rate_limit_exceeded' },
  [ErrorCode.SERVICE_UNAVAILABLE]: { status: 503, code: 'service_unavailable' },
  [ErrorCode.ORDER_ALREADY_VOIDED]: { status: 500, code: 'internal_error' },
};

export function httpErrorFromGraphQL(error: { message?: string; extensions?: Record<string, unknown> }): HttpError {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : ErrorCode.INTERNAL_SERVER_ERROR;
  const entry = TABLE[code];
  if (!entry) return new HttpError(500, 'internal_error', 'internal error');
  const retry = typeof error.extensions?.retryAfterSecs === 'number' ? error.extensions.retryAfterSecs : undefined;
  // A domain error names what happened in `reason`, which becomes the REST code: a conflict names what collided
  // (nmid_taken, invalid_transition, …), others e.g. invalid_otp (400) or otp_cooldown (429).
  if (typeof error.extensions?.reason === 'string') {
    return new HttpError(
      entry.status,
      error.extensions.reason,
      error.message ?? entry.code,
      retry ?? (entry.status === 503 ? UNAVAILABLE_RETRY_SECS : undefined),
    );
  }
  if (entry.status === 503) return new HttpError(503, entry.code, 'a dependency is unavailable, retry later', UNAVAILABLE_RETRY_SECS);
  return new HttpError(entry.status, entry.code, error.message ?? entry.code, retry);
}

export function serviceUnavailable(message = 'a dependency is unavailable, retry later'): HttpError {
  return new HttpError(503, 'service_unavailable', message, UNAVAILABLE_RETRY_SECS);
}
