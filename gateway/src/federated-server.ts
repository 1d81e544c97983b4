import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import { type SubgraphName, disableVendorTelemetry } from '@lib/config/config';
import { projectRoot } from '@lib/config/project-root';
import type { EmbeddedSubgraph } from '@lib/federation/embedded-subgraph';
import { APOLLO_SERVER_SETTINGS, apolloBasePlugins, storableInputPlugin } from '@lib/federation/apollo-settings';
import type { GatewayContext } from './gateway-context';
import { reuseBuiltOperations } from './operation-reuse';
import { adoptSubgraphScalars, formatScalarValueError, scalarLiteralsRule } from './scalar-values';
import { SubgraphDataSource, SubgraphFetchMetrics, embeddedTransport, httpTransport } from './subgraph-data-source';

const SUPERGRAPH_PATH = path.join(projectRoot(), 'gateway', 'supergraph.graphql');

export interface FederatedServerOptions {
  /** Where each subgraph answers. */
  subgraphUrls: Record<SubgraphName, string>;
  /** Subgraphs run inside this process instead (REST_SUBGRAPHS=in-process): their fetches skip HTTP. */
  embedded?: readonly EmbeddedSubgraph[];
  /** The process's metrics registry: operation durations and subgraph fetches are recorded there. */
  registry: Registry;
  logger: FastifyBaseLogger;
  /** Whether the schema may be introspected (development). */
  introspection: boolean;
  /** Plugins of this use (the HTTP gateway's limits, landing page and drain). */
  plugins?: ApolloServerPlugin<GatewayContext>[];
}

/**
 * The Apollo Gateway over the static, pre-composed supergraph (no runtime introspection) inside an Apollo Server:
 * one construction for the two ways it runs, the gateway process's HTTP endpoint (app.ts) and inside the REST
 * process (in-process.ts, docs/decisions/0009-how-operations-execute.md). Not started; the caller starts it.
 */
export function createFederatedServer(options: FederatedServerOptions): { apollo: ApolloServer<GatewayContext>; gateway: ApolloGateway } {
  const fetches = new SubgraphFetchMetrics(options.registry);
  disableVendorTelemetry();
  reuseBuiltOperations();
  const gateway = new ApolloGateway({
    supergraphSdl: readFileSync(SUPERGRAPH_PATH, 'utf8'),
    // The supergraph's routing_url is documentation; the addresses come from configuration.
    buildService: ({ name }) => {
      const embedded = options.embedded?.find((subgraph) => subgraph.name === name);
      const transport = embedded ? embeddedTransport(embedded) : httpTransport(options.subgraphUrls[name as SubgraphName]);
      return new SubgraphDataSource(name, transport, fetches);
    },
    logger: options.logger,
    // Outside production the gateway would answer a request carrying `Apollo-Query-Plan-Experimental` with its query
    // plan (subgraph names, fetches, keys): never offered here (decision 0012).
    __exposeQueryPlanExperimental: false,
  });
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => adoptSubgraphScalars(apiSchema));
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: options.introspection,
    // Without introspection, validation errors name no field the caller did not write ("Did you mean …").
    hideSchemaDetailsFromClientErrors: !options.introspection,
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
