import { type Static, Type } from '@sinclair/typebox';

/** The one error body of every REST API: `{error, code, retry_after_secs?}`. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Human-readable message.' }),
    code: Type.String({ description: 'Machine-readable code.' }),
    retry_after_secs: Type.Optional(Type.Integer({ minimum: 0, description: 'Present only when a cooldown or backoff applies.' })),
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
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return this.retryAfterSecs === undefined
      ? { error: this.message, code: this.code }
      : { error: this.message, code: this.code, retry_after_secs: this.retryAfterSecs };
  }
}

/** Response schemas for the error statuses a route documents; 500 and 503 apply to every route. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries([...new Set([...statuses, 500, 503])].map((status) => [status, Type.Ref(ErrorBody)])) as never;
}
