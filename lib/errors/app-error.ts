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

/**
 * The field a service refused, when it knows it: `field` as the caller's API names it (the REST body's snake_case name,
 * or a JSON pointer such as `/items/0/qty`), the rule broken (JSON Schema's keyword names where one fits: `format`,
 * `enum`, `maximum`, …), and for an enum its allowed values. It travels as `extensions.details` and becomes the REST
 * body's `details` (docs/decisions/0006-error-body-mapping.md).
 */
export interface InputField {
  field: string;
  rule: string;
  allowed?: readonly unknown[];
}

/** One refused field and what is wrong with it. */
export interface InputProblem extends InputField {
  message: string;
}

/**
 * Input the caller must correct (400 bad_request at the REST adapters), naming the field when it is known, or every
 * problem found (InputProblems): the message is the first one's.
 */
export class BadInputError extends AppError {
  readonly problems: readonly InputProblem[];

  constructor(message: string, field?: InputField | readonly InputProblem[]) {
    const problems: InputProblem[] = Array.isArray(field) ? [...field] : field ? [{ ...(field as InputField), message }] : [];
    super(message, ErrorCode.BAD_USER_INPUT, problems.length > 0 ? { details: problems.map((p) => inputDetail(p.message, p)) } : {});
    this.problems = problems;
  }
}

/**
 * Checks that go on after a failure, so that one answer lists every refused field: `check` runs a step that may throw
 * BadInputError and records it; `throwIfAny` throws one BadInputError with the first message and every field.
 */
export class InputProblems {
  private readonly messages: string[] = [];
  private readonly problems: InputProblem[] = [];

  check<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (error) {
      if (!(error instanceof BadInputError)) throw error;
      this.messages.push(error.message);
      this.problems.push(...error.problems);
      return undefined;
    }
  }

  add(message: string, field: InputField): void {
    this.messages.push(message);
    this.problems.push({ ...field, message });
  }

  throwIfAny(): void {
    if (this.messages.length > 0) throw new BadInputError(this.messages[0], this.problems);
  }
}

function inputDetail(message: string, { field, rule, allowed }: InputField): Record<string, unknown> {
  const pointer = field.startsWith('/') ? field : `/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  return allowed ? { pointer, rule, message, allowed: [...allowed] } : { pointer, rule, message };
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
