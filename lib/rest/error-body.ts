import { type Static, Type } from '@sinclair/typebox';

/** One failing field of a request (lib/rest/validation-details.ts). */
export const ErrorDetail = Type.Object(
  {
    pointer: Type.String({
      description:
        'JSON pointer (RFC 6901) to the field: into the body as sent (`/amount`, `/items/0/qty`); a query value under ' +
        '`/query` (`/query/limit`), a path parameter under `/path` (`/path/merchant_id`), a header under `/header`.',
    }),
    rule: Type.String({
      description:
        'The rule the value broke: `required`, `type`, `format`, `pattern`, `enum`, `minimum`, `maximum`, `minLength`, ' +
        '`maxLength`, `minItems`, `maxItems`, `minProperties`, … (JSON Schema keyword names), or a rule of the service.',
    }),
    message: Type.String({ description: 'Human-readable explanation, e.g. `must be >= 1`.' }),
    allowed: Type.Optional(Type.Array(Type.Unknown(), { description: 'For `enum`: every value the field accepts.' })),
  },
  { $id: 'ErrorDetail', title: 'ErrorDetail' },
);
export type ErrorDetail = Static<typeof ErrorDetail>;

/** The one error body of every REST API: `{error, code, retry_after_secs?, details?}`. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Human-readable message; for a 400, about its first problem.' }),
    code: Type.String({ description: 'Machine-readable code.' }),
    retry_after_secs: Type.Optional(Type.Integer({ minimum: 0, description: 'Present only when a cooldown or backoff applies.' })),
    details: Type.Optional(
      Type.Array(Type.Ref(ErrorDetail), {
        description:
          'On a 400 for invalid input: every failing field (at most 50, in document order), the first being the one `error` names. ' +
          'Absent when the problem is not one of fields (e.g. broken JSON).',
      }),
    ),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** An error that leaves a REST adapter as the documented error body and status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSecs?: number,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.message, code: this.code };
    if (this.retryAfterSecs !== undefined) body.retry_after_secs = this.retryAfterSecs;
    if (this.details && this.details.length > 0) body.details = this.details;
    return body;
  }
}

/** Response schemas for the error statuses a route documents; 500 and 503 apply to every route. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries([...new Set([...statuses, 500, 503])].map((status) => [status, Type.Ref(ErrorBody)])) as never;
}
