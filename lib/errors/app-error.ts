import { GraphQLError } from 'graphql';

/**
 * Stable machine codes carried in GraphQL `extensions.code`. The REST adapters map each to an HTTP status
 * and the documented error body in one table (lib/rest/error-map.ts); the GraphQL API documents them too.
 * Domain modules add their own codes here so that the table stays complete.
 */
export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  /** A request body above a hop's limit (lib/http/request-limits.ts): 413 payload_too_large at the REST adapters. */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  /** Gateway limits (docs/graphql.md "Limits"): refused before execution. */
  QUERY_TOO_DEEP: 'QUERY_TOO_DEEP',
  QUERY_TOO_COSTLY: 'QUERY_TOO_COSTLY',
  /** Trusted documents: an unknown document id or hash, or a free-form operation where only trusted ones are allowed. */
  PERSISTED_QUERY_NOT_FOUND: 'PERSISTED_QUERY_NOT_FOUND',
  TRUSTED_DOCUMENT_REQUIRED: 'TRUSTED_DOCUMENT_REQUIRED',
  /** Voiding a voided sales order: core-api.md §7 answers it as 500 internal_error with its own message. */
  ORDER_ALREADY_VOIDED: 'ORDER_ALREADY_VOIDED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A typed error that crosses the GraphQL boundary with a stable code and optional safe details. */
export class AppError extends GraphQLError {
  constructor(message: string, code: ErrorCode, details: Record<string, unknown> = {}) {
    super(message, { extensions: { code, ...details } });
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super(`${what} not found`, ErrorCode.NOT_FOUND);
  }
}

/** Input the caller must correct (400 bad_request at the REST adapters). */
export class BadInputError extends AppError {
  constructor(message: string) {
    super(message, ErrorCode.BAD_USER_INPUT);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'not allowed for this caller') {
    super(message, ErrorCode.FORBIDDEN);
  }
}

/**
 * Whether PostgreSQL refused a value rather than failed: a data exception (SQLSTATE class 22, e.g. a character or
 * date it cannot hold) or JSON nested beyond its stack (54001). Input validation keeps such values out; this names
 * the one that got through.
 */
export function isRefusedValue(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^(22[0-9A-Z]{3}|54001)$/.test(code);
}

/** PostgreSQL and socket failures that mean "a dependency is down", not "the request is wrong". */
export function isConnectionFailure(error: unknown): boolean {
  // graphql-js wraps a thrown value that is no Error (node-postgres's failed connect) as NonErrorThrown, in thrownValue.
  const e = ((error as { thrownValue?: unknown } | undefined)?.thrownValue ?? error) as { code?: string; message?: string } | undefined;
  if (!e) return false;
  const code = e.code ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300'].includes(code) ||
    code.startsWith('08') ||
    // "…is not queryable": a query (often the ROLLBACK of a transaction) on a connection the server already dropped;
    // "Transaction query already complete": the next statement of a transaction knex ended when its connection failed.
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Knex: Timeout acquiring a connection|is not queryable|Transaction query already complete/i.test(
      e.message ?? '',
    )
  );
}
