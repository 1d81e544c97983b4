import { Pool } from 'undici';
import { ACTING_PRINCIPAL_HEADER, type Principal, encodeActingPrincipal } from '../auth/principal';
import { ServiceTokenHolder } from '../auth/service-token';
import { CALL_TIMEOUT_HEADER } from '../http/request-limits';
import { httpErrorFromGraphQL, httpErrorFromStatus, serviceUnavailable } from './error-map';
import { HttpError } from './error-body';
import type { FixedOperationDocument } from './operation';

export interface ExecuteOptions {
  requestId: string;
  /** Who the adapter acts for; omitted, the adapter acts as itself (public data, health). */
  acting?: Principal;
  /** This call's deadline when longer than the default (a route's `timeoutMs`); the gateway is asked for it too. */
  timeoutMs?: number;
}

/** Runs the adapters' fixed operations through the gateway: over HTTP (GatewayClient) or in this process (gateway/src/in-process.ts). */
export interface OperationExecutor {
  execute<TResult, TVariables>(
    operation: FixedOperationDocument<TResult, TVariables>,
    variables: TVariables,
    options: ExecuteOptions,
  ): Promise<TResult>;
  close(): Promise<void>;
}

/**
 * Runs fixed operations against the gateway over a keep-alive pool, with the adapter's service token.
 * GraphQL errors become the documented HTTP errors; an unreachable gateway is a 503; a 4xx of the gateway itself
 * (e.g. its body limit) is the documented 4xx closest to it, never a 500.
 */
export class GatewayClient implements OperationExecutor {
  private readonly pool: Pool;
  private readonly path: string;
  private readonly token: ServiceTokenHolder;

  constructor(
    gatewayUrl: string,
    service: string,
    serviceTokenSecret: string,
    private readonly timeoutMs: number,
  ) {
    const url = new URL(gatewayUrl);
    this.pool = new Pool(url.origin, { connections: 64, keepAliveTimeout: 30_000 });
    this.path = url.pathname;
    this.token = new ServiceTokenHolder(service, serviceTokenSecret);
  }

  async execute<TResult, TVariables>(
    operation: FixedOperationDocument<TResult, TVariables>,
    variables: TVariables,
    options: ExecuteOptions,
  ): Promise<TResult> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${await this.token.get()}`,
      'x-request-id': options.requestId,
    };
    if (options.acting) headers[ACTING_PRINCIPAL_HEADER] = encodeActingPrincipal(options.acting);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    if (options.timeoutMs !== undefined) headers[CALL_TIMEOUT_HEADER] = String(options.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await this.pool.request({
        method: 'POST',
        path: this.path,
        headers,
        body: JSON.stringify({ query: operation.document, operationName: operation.name, variables }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // The header and body timeouts start once the request is on a connection; under a burst, requests wait
        // in the pool's queue first. The signal bounds the whole call, so no answer takes longer than the timeout.
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch {
      throw serviceUnavailable();
    }
    return dataOf(parseGraphQLResponse<TResult>(text), status);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

export interface GraphQLResponse<TResult> {
  data?: TResult | null;
  errors?: readonly { message?: string; extensions?: Record<string, unknown> }[];
}

/**
 * The data of the gateway's answer (`status`: its HTTP status), or the documented HTTP error: the first GraphQL
 * error mapped, a 4xx of the gateway itself as the closest documented 4xx, no answer a 503.
 */
export function dataOf<TResult>(payload: GraphQLResponse<TResult> | undefined, status: number): TResult {
  if (payload?.errors?.length) throw httpErrorFromGraphQL(payload.errors[0], status);
  if (status >= 400 && status < 500) throw httpErrorFromStatus(status);
  if (!payload) throw serviceUnavailable();
  if (!payload.data) throw new HttpError(500, 'internal_error', 'internal error');
  return payload.data;
}

/** The gateway's JSON answer; undefined when it is not JSON (e.g. a proxy's HTML error page). */
function parseGraphQLResponse<TResult>(text: string): GraphQLResponse<TResult> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' ? (parsed as GraphQLResponse<TResult>) : undefined;
  } catch {
    return undefined;
  }
}
