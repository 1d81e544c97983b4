import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { Histogram, type Registry } from 'prom-client';
import { Agent, request } from 'undici';
import { PRINCIPAL_HEADER } from '@lib/auth/principal';
import type { EmbeddedSubgraph, SubgraphAnswer } from '@lib/federation/embedded-subgraph';
import { AppError, ErrorCode } from '@lib/errors/app-error';
import { CALL_TIMEOUT_HEADER, SUBGRAPH_FETCH_TIMEOUT_MS, requestedTimeoutMs } from '@lib/http/request-limits';
import type { GatewayContext } from './gateway-context';

/** One keep-alive connection pool for all subgraph calls of this process. */
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, pipelining: 1 });

type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

/** `subgraph_fetch_duration_seconds{subgraph, outcome}`: each fetch of a query plan, `ok`, `error` (GraphQL errors) or `failed`. */
export class SubgraphFetchMetrics {
  private readonly duration: Histogram;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: 'subgraph_fetch_duration_seconds',
      help: 'Gateway fetches to each subgraph by outcome (ok, error: GraphQL errors in the answer, failed: no answer)',
      labelNames: ['subgraph', 'outcome'],
      buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
  }

  observe(subgraph: string, outcome: 'ok' | 'error' | 'failed', started: bigint): void {
    this.duration.observe({ subgraph, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
  }
}

/** How a data source reaches its subgraph: POSTs the body with the headers, answers the status and the text. */
export type SubgraphTransport = (
  body: Record<string, unknown>,
  headers: Record<string, string>,
  timeoutMs: number,
) => Promise<SubgraphAnswer>;

/** The subgraph's HTTP endpoint at `url`, POSTed to with undici (about 1.5× faster than the default make-fetch-happen fetcher, STACK.md). */
export function httpTransport(url: string): SubgraphTransport {
  return async (body, headers, timeoutMs) => {
    const response = await request(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      dispatcher: agent,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    return { status: response.statusCode, text: await response.body.text() };
  };
}

/** The subgraph run inside this process (REST_SUBGRAPHS=in-process, docs/decisions/0009-how-operations-execute.md). */
export function embeddedTransport(subgraph: EmbeddedSubgraph): SubgraphTransport {
  return (body, headers) => subgraph.execute(body, headers);
}

/**
 * A subgraph's GraphQL endpoint, reached through `transport`, carrying the signed principal, the request id and the
 * caller's deadline. It implements the gateway's `GraphQLDataSource` itself rather than extending
 * `RemoteGraphQLDataSource`, whose fetch path builds node-fetch `Headers` and a `Request` (with a legacy URL parse)
 * for every subgraph call only to read them back: a third of each call's CPU, the server's included
 * (measured in a CPU profile of the REST process under `bench:psp`). APQ and subgraph cache-control hints, the parts of it this project never
 * used, are not offered.
 */
export class SubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  constructor(
    private readonly subgraph: string,
    private readonly transport: SubgraphTransport,
    private readonly metrics: SubgraphFetchMetrics,
  ) {}

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<SubgraphResponse> {
    // Warm-up runs plan and cache operations without touching a subgraph.
    if (options.context?.warmup) return { data: null };
    const started = process.hrtime.bigint();
    try {
      const response = await this.send(options);
      this.metrics.observe(this.subgraph, response.errors?.length ? 'error' : 'ok', started);
      return response;
    } catch (error) {
      this.metrics.observe(this.subgraph, 'failed', started);
      throw error;
    }
  }

  private async send({ request: graphqlRequest, context }: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<SubgraphResponse> {
    const { query, operationName, variables, extensions, http } = graphqlRequest;
    if (!query) throw new Error('Missing query');
    const headers: Record<string, string> = http ? Object.fromEntries(http.headers) : {};
    headers['content-type'] = 'application/json';
    if (context?.principalToken) {
      headers[PRINCIPAL_HEADER] = context.principalToken;
      headers['x-request-id'] = context.requestId;
      if (context.subgraphTimeoutMs !== undefined) headers[CALL_TIMEOUT_HEADER] = String(context.subgraphTimeoutMs);
    }
    // The deadline is SUBGRAPH_FETCH_TIMEOUT_MS unless the call carries its own (a route's longer `timeoutMs`).
    const timeoutMs = requestedTimeoutMs(headers[CALL_TIMEOUT_HEADER]) ?? SUBGRAPH_FETCH_TIMEOUT_MS;
    let answer: SubgraphAnswer;
    try {
      // As JSON would carry it: a key whose value is undefined is absent.
      const body = Object.fromEntries(Object.entries({ query, operationName, variables, extensions }).filter(([, v]) => v !== undefined));
      answer = await this.transport(body, headers, timeoutMs);
    } catch (error) {
      throw new AppError('a backing service is unavailable', ErrorCode.SERVICE_UNAVAILABLE, { cause: (error as Error).name });
    }
    const { status, text } = answer;
    if (status < 200 || status >= 300) throw errorFromResponse(status, text);
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) throw new Error(`Expected JSON response body, but received: ${text}`);
    return body as SubgraphResponse;
  }
}

/**
 * A subgraph answering non-2xx: no subgraph URL or body leaks to the caller, but a cause the caller can act on
 * keeps its code (docs/decisions/0008-request-size-and-time-limits.md): a body over the subgraph's
 * limit is PAYLOAD_TOO_LARGE; a value the subgraph refuses (400 BAD_USER_INPUT for a variable,
 * GRAPHQL_VALIDATION_FAILED for a literal of the query plan, which the gateway copies from the caller's document) is
 * BAD_USER_INPUT with the subgraph's message.
 */
function errorFromResponse(status: number, text: string): AppError {
  if (status === 502 || status === 503 || status === 504)
    return new AppError('a backing service is unavailable', ErrorCode.SERVICE_UNAVAILABLE);
  if (status === 413) return new AppError('request body too large', ErrorCode.PAYLOAD_TOO_LARGE);
  if (status === 400) {
    const first = firstError(text);
    if (typeof first?.message === 'string' && REFUSED_INPUT_CODES.has(first.extensions?.code)) {
      return new AppError(first.message, ErrorCode.BAD_USER_INPUT);
    }
  }
  return new AppError(`a backing service answered ${status}`, ErrorCode.INTERNAL_SERVER_ERROR);
}

const REFUSED_INPUT_CODES = new Set<unknown>([ErrorCode.BAD_USER_INPUT, 'GRAPHQL_VALIDATION_FAILED']);

/** The first GraphQL error of a subgraph's answer, if its body is one. */
function firstError(text: string): { message?: unknown; extensions?: { code?: unknown } } | undefined {
  try {
    const body = JSON.parse(text) as { errors?: { message?: unknown; extensions?: { code?: unknown } }[] };
    return Array.isArray(body.errors) ? body.errors[0] : undefined;
  } catch {
    return undefined;
  }
}
