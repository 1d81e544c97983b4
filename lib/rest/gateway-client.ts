import { Pool } from 'undici';
import { ACTING_PRINCIPAL_HEADER, type Principal, encodeActingPrincipal } from '../auth/principal';
import { ServiceTokenHolder } from '../auth/service-token';
import { httpErrorFromGraphQL, serviceUnavailable } from './error-map';
import { HttpError } from './error-body';
import type { FixedOperationDocument } from './operation';

export interface ExecuteOptions {
  requestId: string;
  /** Who the adapter acts for; omitted, the adapter acts as itself (public data, health). */
  acting?: Principal;
}

/**
 * Runs fixed operations against the gateway over a keep-alive pool, with the adapter's service token.
 * GraphQL errors become the documented HTTP errors; an unreachable gateway is a 503.
 */
export class GatewayClient {
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
    let payload: { data?: TResult | null; errors?: { message?: string; extensions?: Record<string, unknown> }[] };
    try {
      const response = await this.pool.request({
        method: 'POST',
        path: this.path,
        headers,
        body: JSON.stringify({ query: operation.document, operationName: operation.name, variables }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        // The header and body timeouts start once the request is on a connection; under a burst, requests wait
        // in the pool's queue first. The signal bounds the whole call, so no answer takes longer than the timeout.
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      payload = (await response.body.json()) as typeof payload;
    } catch {
      throw serviceUnavailable();
    }
    if (payload.errors?.length) throw httpErrorFromGraphQL(payload.errors[0]);
    if (!payload.data) throw new HttpError(500, 'internal_error', 'internal error');
    return payload.data;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
