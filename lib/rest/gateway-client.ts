import { Pool } from 'undici';
import { ACTING_PRINCIPAL_HEADER, encodeActingPrincipal } from '../auth/principal';
import { ServiceTokenHolder } from '../auth/service-token';
import { CALL_TIMEOUT_HEADER } from '../http/request-limits';
import { serviceUnavailable } from './error-map';
import type { FixedOperationDocument } from './operation';
import { type ExecuteOptions, type GraphQLResponse, type OperationExecutor, dataOf } from './operation-executor';

/**
 * Runs fixed operations against the gateway process over a keep-alive pool, with a service token (the operator CLI,
 * which acts on the running system through its gateway).
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

/** The gateway's JSON answer; undefined when it is not JSON (e.g. a proxy's HTML error page). */
function parseGraphQLResponse<TResult>(text: string): GraphQLResponse<TResult> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' ? (parsed as GraphQLResponse<TResult>) : undefined;
  } catch {
    return undefined;
  }
}
