import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { FastifyBaseLogger } from 'fastify';
import type { FormattedExecutionResult } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Registry } from 'prom-client';
import { type Principal, signPrincipal } from '@lib/auth/principal';
import { type Config, type SubgraphName, disableVendorTelemetry } from '@lib/config/config';
import { projectRoot } from '@lib/config/project-root';
import { registerPoolMetrics } from '@lib/db/pool-metrics';
import { EmbeddedSubgraph } from '@lib/federation/embedded-subgraph';
import { APOLLO_SERVER_SETTINGS, apolloBasePlugins, storableInputPlugin } from '@lib/federation/apollo-settings';
import type { SubgraphDefinition } from '@lib/federation/subgraph-definition';
import type { GatewayContext } from './gateway-context';
import { reuseBuiltOperations } from './operation-reuse';
import { adoptSubgraphScalars, formatScalarValueError, scalarLiteralsRule } from './scalar-values';
import { SubgraphDataSource, SubgraphFetchMetrics, type SubgraphTransport, embeddedTransport, httpTransport } from './subgraph-data-source';
import { type WarmUpDocument, warmUp } from './warm-up';

const SUPERGRAPH_PATH = path.join(projectRoot(), 'gateway', 'supergraph.graphql');

/** A signed principal is reused this long; it is valid for 60 s (lib/auth/principal.ts), so a subgraph never sees one older than that. */
const SIGNED_PRINCIPAL_REUSE_MS = 30_000;

/**
 * How the executor reaches the subgraphs: `http`, each subgraph's process at its URL (config.subgraphUrls, with
 * `urls` replacing some); `embedded`, their schemas and services run in this process (lib/federation/embedded-subgraph.ts),
 * either opened here from their definitions (and closed with the executor) or `shared` with another executor of the
 * process (the test stack's gateway and REST), which closes them itself.
 */
export type SubgraphTransportChoice =
  | { transport: 'http'; urls?: Partial<Record<SubgraphName, string>> }
  | { transport: 'embedded'; definitions: readonly SubgraphDefinition[] }
  | { transport: 'embedded'; shared: readonly EmbeddedSubgraph[] };

export interface GraphExecutorOptions {
  config: Config;
  subgraphs: SubgraphTransportChoice;
  /** The process's metrics registry: operation durations, subgraph fetches and embedded pools are recorded there. */
  registry: Registry;
  logger: FastifyBaseLogger;
  /** Whether the schema may be introspected (the gateway process in development). */
  introspection?: boolean;
  /** Plugins of this use (the gateway process's limits and landing page). */
  plugins?: ApolloServerPlugin<GatewayContext>[];
  /** Documents warmed at start besides the fixed REST operations (the gateway process's trusted app documents). */
  warm?: readonly WarmUpDocument[];
  /**
   * Whether every fixed REST operation and `warm` document is parsed, validated and planned at start (default): off,
   * each is planned at its first request (the test stacks, which run a few operations each and start 40 times a run).
   */
  warmUp?: boolean;
}

/** Who an operation runs for, and its deadline when a caller asked for a longer one than the fetch default. */
export interface OperationCaller {
  principal: Principal;
  requestId: string;
  subgraphTimeoutMs?: number;
}

/** One GraphQL answer and the HTTP status Apollo Server gives it. */
export interface GraphAnswer<TData = Record<string, unknown>> {
  result: FormattedExecutionResult<TData>;
  status: number;
}

/**
 * The one way an operation runs (docs/decisions/0009-how-operations-execute.md): the Apollo Gateway over the static,
 * pre-composed supergraph (no runtime introspection) inside an Apollo Server, its query plans fetched from the
 * subgraphs over HTTP or in process. The gateway process serves it at /graphql (app.ts); the REST process runs its
 * fixed operations on one (rest-adapters/gateway.ts). Every fixed REST operation and trusted app document is parsed,
 * validated and planned at start (warm-up.ts) unless told otherwise.
 */
export class GraphExecutor {
  private readonly signed = new LRUCache<string, string>({ max: 10_000, ttl: SIGNED_PRINCIPAL_REUSE_MS });

  private constructor(
    readonly apollo: ApolloServer<GatewayContext>,
    private readonly config: Config,
    /** The subgraphs this executor runs in process. */
    readonly embedded: readonly EmbeddedSubgraph[],
    private readonly ownsEmbedded: boolean,
    /** How each subgraph is reached (identity look-ups go straight to the merchant subgraph this way). */
    readonly transport: (name: SubgraphName) => SubgraphTransport,
  ) {}

  static async start(options: GraphExecutorOptions): Promise<GraphExecutor> {
    const { subgraphs } = options;
    const opened =
      subgraphs.transport === 'embedded' && 'definitions' in subgraphs
        ? await Promise.all(subgraphs.definitions.map((definition) => EmbeddedSubgraph.open(definition, options.config, options.logger)))
        : undefined;
    const embedded = opened ?? (subgraphs.transport === 'embedded' && 'shared' in subgraphs ? subgraphs.shared : []);
    if (embedded.length > 0)
      registerPoolMetrics(options.registry, Object.fromEntries(embedded.map((subgraph) => [subgraph.name, subgraph.orm])));
    const urls = { ...options.config.subgraphUrls, ...(subgraphs.transport === 'http' ? subgraphs.urls : {}) };
    const transport = (name: SubgraphName): SubgraphTransport => {
      const local = embedded.find((subgraph) => subgraph.name === name);
      return local ? embeddedTransport(local) : httpTransport(urls[name]);
    };
    const { apollo, gateway } = federatedServer(options, transport);
    await apollo.start();
    if (options.warmUp ?? true) await warmUp(apollo, gateway.schema!, options.logger, options.warm);
    return new GraphExecutor(apollo, options.config, embedded, opened !== undefined, transport);
  }

  /** Runs one operation for `caller`, its principal signed for the subgraphs (one signature reused for 30 s). */
  async execute<TData = Record<string, unknown>>(
    request: { query: string; operationName?: string; variables?: Record<string, unknown> },
    caller: OperationCaller,
  ): Promise<GraphAnswer<TData>> {
    const contextValue: GatewayContext = {
      principal: caller.principal,
      principalToken: await this.sign(caller.principal),
      requestId: caller.requestId,
      subgraphTimeoutMs: caller.subgraphTimeoutMs,
    };
    const response = await this.apollo.executeOperation<TData>(request, { contextValue });
    if (response.body.kind !== 'single') throw new Error('an incremental answer was not expected');
    return { result: response.body.singleResult, status: response.http.status ?? 200 };
  }

  async close(): Promise<void> {
    await this.apollo.stop();
    if (this.ownsEmbedded) await Promise.all(this.embedded.map((subgraph) => subgraph.close()));
  }

  /** The principal's token for the subgraphs: signed once, reused while it has more than half its validity left. */
  async sign(principal: Principal): Promise<string> {
    const key = JSON.stringify(principal);
    const cached = this.signed.get(key);
    if (cached) return cached;
    const token = await signPrincipal(principal, this.config.secrets.principalSecret);
    this.signed.set(key, token);
    return token;
  }
}

/** The Apollo Gateway and its Apollo Server (not started), each subgraph reached through `transportOf`. */
function federatedServer(
  options: GraphExecutorOptions,
  transportOf: (name: SubgraphName) => SubgraphTransport,
): { apollo: ApolloServer<GatewayContext>; gateway: ApolloGateway } {
  const fetches = new SubgraphFetchMetrics(options.registry);
  const introspection = options.introspection ?? false;
  disableVendorTelemetry();
  reuseBuiltOperations();
  const gateway = new ApolloGateway({
    supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'),
    // Checked when composed (npm run compose; test/contracts/composition.spec.ts), not again at every start: the
    // gateway's default outside production, 0.1 s of CPU a start (docs/benchmarks.md, "The test suite").
    validateSupergraph: false,
    // The supergraph's routing_url is documentation; the addresses come from configuration.
    buildService: ({ name }) => new SubgraphDataSource(name, transportOf(name as SubgraphName), fetches),
    logger: options.logger,
    // Outside production the gateway would answer a request carrying `Apollo-Query-Plan-Experimental` with its query
    // plan (subgraph names, fetches, keys): never offered here (decision 0012).
    __exposeQueryPlanExperimental: false,
  });
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => adoptSubgraphScalars(apiSchema));
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection,
    // Without introspection, validation errors name no field the caller did not write ("Did you mean …").
    hideSchemaDetailsFromClientErrors: !introspection,
    validationRules: [scalarLiteralsRule],
    // Documents come only from the trusted list (trusted-documents.ts); clients cannot register any.
    persistedQueries: false,
    ...APOLLO_SERVER_SETTINGS,
    plugins: [...apolloBasePlugins<GatewayContext>(options.registry), storableInputPlugin(), ...(options.plugins ?? [])],
    formatError: (formatted, error) => {
      // Downstream detail (URLs, bodies, stack traces) never reaches the caller.
      const { response: _response, exception: _exception, stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
      return formatScalarValueError({ ...formatted, extensions }, error);
    },
  });
  return { apollo, gateway };
}
