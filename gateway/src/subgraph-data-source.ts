import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { Agent, request } from 'undici';
import { PRINCIPAL_HEADER } from '@lib/auth/principal';
import { AppError, ErrorCode } from '@lib/errors/app-error';
import type { GatewayContext } from './gateway-context';

/** One keep-alive connection pool for all subgraph calls of this process. */
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, pipelining: 1 });

type Fetcher = NonNullable<ConstructorParameters<typeof RemoteGraphQLDataSource>[0]>['fetcher'];

/**
 * undici-based fetcher (about 1.5× faster than the default make-fetch-happen one, STACK.md). It returns the
 * small Response-like object the data source reads. A subgraph that cannot be reached is a 503-class error.
 */
const undiciFetcher = (async (url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) => {
  try {
    const response = await request(url, {
      method: (init.method ?? 'POST') as 'POST',
      headers: init.headers,
      body: init.body,
      dispatcher: agent,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await response.body.text();
    const headers = new Headers();
    for (const [key, value] of Object.entries(response.headers)) {
      if (typeof value === 'string') headers.set(key, value);
    }
    return {
      url,
      status: response.statusCode,
      statusText: String(response.statusCode),
      ok: response.statusCode >= 200 && response.statusCode < 300,
      headers,
      text: async () => text,
      json: async () => JSON.parse(text),
    };
  } catch (error) {
    throw new AppError('a backing service is unavailable', ErrorCode.SERVICE_UNAVAILABLE, {
      cause: (error as Error).name,
    });
  }
}) as unknown as Fetcher;

/** Forwards the signed principal and the request id to each subgraph. */
export class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(url: string) {
    super({ url, fetcher: undiciFetcher });
  }

  override async process(
    options: GraphQLDataSourceProcessOptions<GatewayContext>,
  ): ReturnType<RemoteGraphQLDataSource<GatewayContext>['process']> {
    // Warm-up runs plan and cache operations without touching a subgraph.
    if ('context' in options && options.context?.warmup) return { data: null };
    return super.process(options);
  }

  override willSendRequest({
    request: outgoing,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]): void {
    if (!context?.principalToken) return;
    outgoing.http?.headers.set(PRINCIPAL_HEADER, context.principalToken);
    outgoing.http?.headers.set('x-request-id', context.requestId);
  }

  /** A subgraph answering non-2xx: no subgraph URL or body leaks to the caller. */
  override async errorFromResponse(response: { status: number }): Promise<AppError> {
    const unavailable = response.status === 502 || response.status === 503 || response.status === 504;
    return unavailable
      ? new AppError('a backing service is unavailable', ErrorCode.SERVICE_UNAVAILABLE)
      : new AppError(`a backing service answered ${response.status}`, ErrorCode.INTERNAL_SERVER_ERROR);
  }
}
