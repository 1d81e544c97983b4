import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { PRINCIPAL_HEADER, type Principal, PrincipalVerifier } from '../auth/principal';
import type { Config, SubgraphName } from '../config/config';
import { type Orm, pingDatabase } from '../db/orm';
import { SCHEMA_OF } from '../db/database-urls';
import { ReadReplica } from '../db/read-replica';
import { databaseReadiness } from '../db/readiness';
import { registerProbes } from '../http/probes';
import { AppError, ErrorCode, isConnectionFailure } from '../errors/app-error';
import { registerPoolMetrics } from '../db/pool-metrics';
import { metricsPlugin } from '../http/metrics';
import { APOLLO_SERVER_SETTINGS, apolloBasePlugins } from './apollo-settings';
import { SUBGRAPH_BODY_LIMIT } from '../http/request-limits';
import { enforceBodyDeadline, serverTimeoutOptions } from '../http/server-timeouts';
import { scopedPlugin } from '../http/scoped-plugin';
import { type LogStream, fastifyLoggingOptions } from '../logging/logger';
import { mayReadReplica } from './replica-reads';
import type { SubgraphContext } from './subgraph-context';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyInstance {
    /** The subgraph's ORM (tests observe the statements it sends, e.g. to bound N+1 queries). */
    orm?: Orm;
  }
}

export interface SubgraphServerOptions<Scope> {
  name: SubgraphName;
  config: Config;
  schema: GraphQLSchema;
  orm: Orm;
  /** The subgraph's ORM on its streaming replica, for the reads that tolerate lag (closed with the server). */
  replicaOrm?: Orm;
  /** Builds the request's services and DataLoaders around its own EntityManager. */
  requestScope: (em: EntityManager, config: Config) => Scope;
  logStream?: LogStream;
}

/** A subgraph's 401 answer to a request without a valid principal, over HTTP or inside REST (embedded-subgraph.ts). */
export const NO_PRINCIPAL_BODY = {
  errors: [{ message: 'missing or invalid principal', extensions: { code: ErrorCode.UNAUTHENTICATED } }],
};

/** Codes a client may see as they are; anything else becomes a generic internal error (and is logged). */
const PASS_THROUGH_CODES = new Set<string>([
  ...Object.values(ErrorCode),
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
]);

/**
 * A subgraph process: Apollo Server on fastify at /graphql, refusing every request without a valid
 * principal signed by the gateway; /health (with a database probe), /livez, /readyz (its database answers and holds this
 * build's migrations: lib/http/probes.ts) and /metrics beside it.
 */
export async function createSubgraphServer<Scope extends object>(options: SubgraphServerOptions<Scope>): Promise<FastifyInstance> {
  const { name, config, schema, orm, replicaOrm, requestScope, logStream } = options;
  const app = Fastify({
    ...fastifyLoggingOptions(config, `subgraph-${name}`, logStream),
    ...serverTimeoutOptions(config),
    bodyLimit: SUBGRAPH_BODY_LIMIT,
  });
  enforceBodyDeadline(app, config);
  await app.register(metricsPlugin, { service: `subgraph-${name}` });
  registerPoolMetrics(app.metricsRegistry, { [name]: orm });

  const apollo = createSubgraphApollo<Scope>(
    schema,
    [
      ...apolloBasePlugins<SubgraphContext<Scope>>(app.metricsRegistry),
      ApolloServerPluginLandingPageDisabled(),
      fastifyApolloDrainPlugin(app),
    ],
    app.log,
  );
  await apollo.start();

  app.decorate('orm', orm);
  const replica = ReadReplica.of(replicaOrm, orm, config.database.replicaMaxLagMs, app.log);

  const migrations = (orm.config.get('migrations').migrationsList ?? []).map((migration) => migration.name);
  registerProbes(app, [
    databaseReadiness('database', SCHEMA_OF[name], migrations, async (sql) => orm.em.getConnection().execute(sql, [], 'all')),
  ]);
  app.get('/health', { logLevel: 'warn' }, async (_req, reply) => {
    try {
      await pingDatabase(orm);
      return { service: `subgraph-${name}`, status: 'ok', database: 'ok' };
    } catch {
      reply.code(503);
      return { service: `subgraph-${name}`, status: 'unavailable', database: 'unavailable' };
    }
  });

  const principals = new PrincipalVerifier(config.secrets.accepted.principalSecret);
  const graphqlRoutes = scopedPlugin('subgraph-graphql', async (graphql) => {
    graphql.addHook('onRequest', async (req, reply) => {
      const header = req.headers[PRINCIPAL_HEADER];
      const principal = await principals.verify(typeof header === 'string' ? header : undefined);
      if (!principal) {
        reply.code(401).send(NO_PRINCIPAL_BODY);
        return reply;
      }
      req.principal = principal;
    });
    await graphql.register(fastifyApollo(apollo), {
      path: '/graphql',
      context: async (req) =>
        subgraphContext(
          requestOrm(orm, replica, req.body, req.principal!),
          (em) => requestScope(em, config),
          req.principal!,
          req.id,
          req.log,
        ),
    });
  });
  await app.register(graphqlRoutes);

  app.addHook('onClose', async () => {
    await replica?.close();
    await orm.close();
  });
  return app;
}

/**
 * A subgraph's Apollo Server, as its own process serves it over HTTP and as an embedding REST process runs it
 * (embedded-subgraph.ts): the platform's settings, `plugins`, and errors reduced to what a client may see.
 */
export function createSubgraphApollo<Scope>(
  schema: GraphQLSchema,
  plugins: ApolloServerPlugin<SubgraphContext<Scope>>[],
  log: FastifyBaseLogger,
): ApolloServer<SubgraphContext<Scope>> {
  return new ApolloServer<SubgraphContext<Scope>>({
    schema,
    introspection: false,
    // Only the gateway calls a subgraph; its validation errors suggest no field names ("Did you mean …").
    hideSchemaDetailsFromClientErrors: true,
    ...APOLLO_SERVER_SETTINGS,
    plugins,
    formatError: (formatted, error) => formatSubgraphError(formatted, error, log),
  });
}

/** The ORM one request reads and writes through: the primary's, or the replica's for a lag-tolerant read (replica-reads.ts). */
export function requestOrm(orm: Orm, replica: ReadReplica | undefined, body: unknown, principal: Principal): Orm {
  return replica ? replica.ormFor(mayReadReplica(body, principal)) : orm;
}

/** What a subgraph's resolvers get for one request: who acts, its own EntityManager, and the subgraph's services around it. */
export function subgraphContext<Scope>(
  orm: Orm,
  requestScope: (em: EntityManager) => Scope,
  principal: Principal,
  requestId: string,
  log: FastifyBaseLogger,
): SubgraphContext<Scope> {
  const em = orm.em.fork() as EntityManager;
  return { ...requestScope(em), principal, requestId, em, log };
}

function formatSubgraphError(formatted: GraphQLFormattedError, error: unknown, log: FastifyBaseLogger): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof AppError) return formatted;
  if (isConnectionFailure(original)) {
    return { message: 'database unavailable', extensions: { code: ErrorCode.SERVICE_UNAVAILABLE } };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && PASS_THROUGH_CODES.has(code) && code !== ErrorCode.INTERNAL_SERVER_ERROR) {
    return formatted;
  }
  log.error({ err: original }, 'unexpected resolver error');
  return { message: 'internal error', path: formatted.path, extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } };
}
