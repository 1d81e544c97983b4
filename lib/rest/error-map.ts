import { ErrorCode } from '../errors/app-error';
import { type ErrorDetail, HttpError } from './error-body';
import { MAX_ERROR_DETAILS } from './validation-details';

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
  [ErrorCode.PAYLOAD_TOO_LARGE]: { status: 413, code: 'payload_too_large' },
  [ErrorCode.ORDER_ALREADY_VOIDED]: { status: 500, code: 'internal_error' },
};

/**
 * GraphQL codes of a document that does not parse or validate: the adapters send only fixed operations, checked
 * against the schema by the contract tests, so these are the server's own fault (500) whatever HTTP status came.
 */
const OWN_DOCUMENT_FAULTS = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED']);

/**
 * The documented HTTP error of a GraphQL error. `httpStatus` is the status the gateway answered with: a code the
 * table does not know, answered with a 4xx, is the caller's to act on and never becomes a 500
 * (docs/decisions/0008-request-size-and-time-limits.md).
 */
export function httpErrorFromGraphQL(error: { message?: string; extensions?: Record<string, unknown> }, httpStatus?: number): HttpError {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : ErrorCode.INTERNAL_SERVER_ERROR;
  const entry = TABLE[code];
  if (!entry) {
    if (httpStatus !== undefined && httpStatus >= 400 && httpStatus < 500 && !OWN_DOCUMENT_FAULTS.has(code)) {
      return httpErrorFromStatus(httpStatus, error.message);
    }
    return new HttpError(500, 'internal_error', 'internal error');
  }
  const retry = typeof error.extensions?.retryAfterSecs === 'number' ? error.extensions.retryAfterSecs : undefined;
  // A domain error names what happened in `reason`, which becomes the REST code: a conflict names what collided
  // (nmid_taken, invalid_transition, …), others e.g. invalid_otp (400) or otp_cooldown (429).
  if (typeof error.extensions?.reason === 'string') {
    return new HttpError(
      entry.status,
      error.extensions.reason,
      error.message ?? entry.code,
      retry ?? (entry.status === 503 ? UNAVAILABLE_RETRY_SECS : undefined),
      entry.status === 400 ? detailsOf(error) : undefined,
    );
  }
  if (entry.status === 503) return new HttpError(503, entry.code, 'a dependency is unavailable, retry later', UNAVAILABLE_RETRY_SECS);
  return new HttpError(entry.status, entry.code, error.message ?? entry.code, retry, entry.status === 400 ? detailsOf(error) : undefined);
}

/**
 * The fields a service named when it refused input in code (BadInputError with a field: `extensions.details`), as the
 * REST body's `details`; whatever is not a well-formed detail is left out.
 */
function detailsOf(error: { extensions?: Record<string, unknown> }): ErrorDetail[] | undefined {
  const raw = error.extensions?.details;
  if (!Array.isArray(raw)) return undefined;
  const details = raw
    .filter(
      (d): d is ErrorDetail =>
        d !== null &&
        typeof d === 'object' &&
        typeof (d as ErrorDetail).pointer === 'string' &&
        typeof (d as ErrorDetail).rule === 'string' &&
        typeof (d as ErrorDetail).message === 'string',
    )
    .slice(0, MAX_ERROR_DETAILS)
    .map(({ pointer, rule, message, allowed }) =>
      Array.isArray(allowed) ? { pointer, rule, message, allowed } : { pointer, rule, message },
    );
  return details.length > 0 ? details : undefined;
}

export function serviceUnavailable(message = 'a dependency is unavailable, retry later'): HttpError {
  return new HttpError(503, 'service_unavailable', message, UNAVAILABLE_RETRY_SECS);
}

/**
 * A downstream 4xx answer without a GraphQL error the table knows (e.g. a body limit of the gateway): the documented
 * error closest to it. Never a 500: the request, not the server, is what must change.
 */
export function httpErrorFromStatus(status: number, message?: string): HttpError {
  if (status === 413) return new HttpError(413, 'payload_too_large', 'request body too large');
  if (status === 429) return new HttpError(429, 'rate_limit_exceeded', message ?? 'too many requests', UNAVAILABLE_RETRY_SECS);
  return new HttpError(400, 'bad_request', message ? `invalid request: ${message}` : 'invalid request');
}
