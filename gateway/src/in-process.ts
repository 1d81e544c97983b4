import type { ApolloServer } from '@apollo/server';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Registry } from 'prom-client';
import { type Principal, signPrincipal } from '@lib/auth/principal';
import type { Config, SubgraphName } from '@lib/config/config';
import { registerPoolMetrics } from '@lib/db/pool-metrics';
import { EmbeddedSubgraph } from '@lib/federation/embedded-subgraph';
import type { SubgraphDefinition } from '@lib/federation/subgraph-definition';
import { type ExecuteOptions, type OperationExecutor, dataOf } from '@lib/rest/gateway-client';
import { serviceUnavailable } from '@lib/rest/error-map';
import { HttpError } from '@lib/rest/error-body';
import type { FixedOperationDocument } from '@lib/rest/operation';
import { createFederatedServer } from './federated-server';
import type { GatewayContext } from './gateway-context';
import { warmUp } from './warm-up';

/** A signed principal is reused this long; it is valid for 60 s (lib/auth/principal.ts), so a subgraph never sees one older than that. */
const SIGNED_PRINCIPAL_REUSE_MS = 30_000;

export interface InProcessGatewayOptions {
  config: Config;
  /** Subgraph URLs that replace config.subgraphUrls (tests listen on ephemeral ports). */
  subgraphUrls?: Partial<Record<SubgraphName, string>>;
  /** The REST process's registry: the gateway's operation and subgraph-fetch metrics are recorded beside its own. */
  registry: Registry;
  logger: FastifyBaseLogger;
  /** Who the adapters are when they act as themselves (public data). */
  service: string;
  /** Subgraphs to run inside this process rather than reach over HTTP (REST_SUBGRAPHS=in-process). */
  embedded?: readonly SubgraphDefinition[];
}

/**
 * The gateway inside the REST process (docs/decisions/0009-how-operations-execute.md): the same supergraph, query
 * planner and subgraph data sources as the gateway process, without the HTTP hop between them. The REST adapters
 * have already authenticated the caller, so the principal they act for is signed here for the subgraphs, as the
 * gateway process does for a verified service token; operations are the fixed ones, warmed at start.
 */
export class InProcessGateway implements OperationExecutor {
  private readonly signed = new LRUCache<string, string>({ max: 10_000, ttl: SIGNED_PRINCIPAL_REUSE_MS });

  private constructor(
    private readonly apollo: ApolloServer<GatewayContext>,
    private readonly config: Config,
    private readonly service: string,
    /** The subgraphs this process runs itself (REST_SUBGRAPHS=in-process). */
    readonly embedded: readonly EmbeddedSubgraph[],
  ) {}

  static async start(options: InProcessGatewayOptions): Promise<InProcessGateway> {
    const embedded = await Promise.all(
      (options.embedded ?? []).map((definition) => EmbeddedSubgraph.open(definition, options.config, options.logger)),
    );
    if (embedded.length > 0)
      registerPoolMetrics(options.registry, Object.fromEntries(embedded.map((subgraph) => [subgraph.name, subgraph.orm])));
    const { apollo, gateway } = createFederatedServer({
      subgraphUrls: { ...options.config.subgraphUrls, ...options.subgraphUrls },
      embedded,
      registry: options.registry,
      logger: options.logger,
      introspection: false,
    });
    await apollo.start();
    await warmUp(apollo, gateway.schema!, options.logger);
    return new InProcessGateway(apollo, options.config, options.service, embedded);
  }

  async execute<TResult, TVariables>(
    operation: FixedOperationDocument<TResult, TVariables>,
    variables: TVariables,
    options: ExecuteOptions,
  ): Promise<TResult> {
    const principal: Principal = options.acting ?? { kind: 'service', service: this.service };
    const contextValue: GatewayContext = {
      principal,
      principalToken: await this.sign(principal),
      requestId: options.requestId,
      subgraphTimeoutMs: options.timeoutMs,
    };
    const timeoutMs = options.timeoutMs ?? this.config.gatewayTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(serviceUnavailable()), timeoutMs);
    });
    try {
      const response = await Promise.race([
        this.apollo.executeOperation(
          { query: operation.document, operationName: operation.name, variables: variables as Record<string, unknown> },
          { contextValue },
        ),
        deadline,
      ]);
      if (response.body.kind !== 'single') throw new HttpError(500, 'internal_error', 'internal error');
      return dataOf(response.body.singleResult as { data?: TResult | null }, response.http.status ?? 200);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.apollo.stop();
    await Promise.all(this.embedded.map((subgraph) => subgraph.close()));
  }

  private async sign(principal: Principal): Promise<string> {
    const key = JSON.stringify(principal);
    const cached = this.signed.get(key);
    if (cached) return cached;
    const token = await signPrincipal(principal, this.config.secrets.principalSecret);
    this.signed.set(key, token);
    return token;
  }
}
