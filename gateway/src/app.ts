import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo from '@as-integrations/fastify';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from '@lib/config/config';
import { subscribeCacheInvalidation } from '@lib/events/cache-invalidation';
import { refuseClientErrors, refuseWhileClosing } from '@lib/http/client-errors';
import { metricsPlugin } from '@lib/http/metrics';
import { registerProbes } from '@lib/http/probes';
import { CALL_TIMEOUT_HEADER, GATEWAY_SERVICE_BODY_LIMIT, requestedTimeoutMs } from '@lib/http/request-limits';
import { enforceBodyDeadline, serverTimeoutOptions } from '@lib/http/server-timeouts';
import { type LogStream, fastifyLoggingOptions } from '@lib/logging/logger';
import { AppError, ErrorCode } from '@lib/errors/app-error';
import { bodyLimitPlugin, PAYLOAD_TOO_LARGE_BODY } from './body-limit';
import { CallerAuthenticator } from './caller-auth';
import { registerExplorer } from './explorer';
import type { GatewayContext } from './gateway-context';
import { limitsPlugin } from './limits-plugin';
import { GraphExecutor, type SubgraphTransportChoice } from './executor';
import {
  PERSISTED_QUERY_NOT_FOUND_BODY,
  PersistedQueryNotFound,
  type TrustedDocument,
  loadTrustedDocuments,
  resolveTrustedDocument,
} from './trusted-documents';

export interface GatewayOptions {
  config: Config;
  /** How the gateway reaches the subgraphs: their processes at config.subgraphUrls unless told otherwise (tests). */
  subgraphs?: SubgraphTransportChoice;
  logStream?: LogStream;
  /** Plan every trusted document and fixed operation at start (default; GraphExecutorOptions.warmUp). */
  warmUp?: boolean;
}

/**
 * The Apollo Gateway over the static, pre-composed supergraph (no runtime introspection). Each request's
 * caller is authenticated once, its principal signed once, and forwarded to every subgraph fetch.
 */
export async function createGatewayApp({
  config,
  subgraphs = { transport: 'http' },
  logStream,
  warmUp,
}: GatewayOptions): Promise<FastifyInstance> {
  const app = newServer(config, logStream);
  refuseWhileClosing(app, (reply) =>
    reply
      .code(503)
      .header('retry-after', String(DRAIN_RETRY_SECS))
      .send(graphqlError('the service is shutting down, retry later', ErrorCode.SERVICE_UNAVAILABLE)),
  );
  limitBodies(app, config);
  await app.register(metricsPlugin, { service: 'gateway' });
  const development = !config.isProduction;
  const trustedDocuments = loadTrustedDocuments();
  // Development: GraphiQL from node_modules at /graphiql and as the landing page of /graphql (explorer.ts).
  const explorer = development ? registerExplorer(app, [...trustedDocuments.values()]) : undefined;
  const executor = await GraphExecutor.start({
    config,
    subgraphs,
    registry: app.metricsRegistry,
    logger: app.log,
    introspection: development,
    plugins: [explorer ?? ApolloServerPluginLandingPageDisabled(), limitsPlugin(config.gatewayLimits)],
    warm: [...trustedDocuments.values()].map((d) => ({ name: d.name, document: d.document })),
    warmUp,
  });
  // fastify drains the server (refuseWhileClosing above); the executor stops once it is closed.
  app.addHook('onClose', () => executor.close());
  const callers = new CallerAuthenticator(config, executor.transport('merchant'));
  const stopFollowing = callers.followInvalidations();
  const stopInvalidation = await subscribeCacheInvalidation(config.redisUrl, app.log);
  app.addHook('onClose', async () => {
    stopFollowing();
    await stopInvalidation();
  });

  app.get('/health', { logLevel: 'warn' }, async () => ({ service: 'gateway', status: 'ok' }));
  // Ready unless draining: its dependencies are the subgraphs, services with readiness of their own (a subgraph's
  // outage must not take every gateway copy out of the load balancer), and Redis, which is optional (decision 0203).
  registerProbes(app);
  acceptTrustedDocuments(app, trustedDocuments);
  await app.register(fastifyApollo(executor.apollo), { path: '/graphql', context: requestContext(config, callers, executor) });
  return app;
}

function newServer(config: Config, logStream: LogStream | undefined): FastifyInstance {
  // The largest limit here; each request's own (by caller) is checked while its body arrives (body-limit.ts).
  const app = Fastify({
    ...fastifyLoggingOptions(config, 'gateway', logStream),
    ...serverTimeoutOptions(config),
    bodyLimit: GATEWAY_SERVICE_BODY_LIMIT,
    // Behind a load balancer the client is X-Forwarded-For's entry that many hops back (TRUST_PROXY_HOPS).
    trustProxy: config.http.trustProxyHops > 0 ? (_address: string, hop: number) => hop < config.http.trustProxyHops : false,
    // Answers fastify would give in its own body are GraphQL errors, as every other answer here: while closing (below),
    // and for requests Node refuses before fastify sees them (headers too large, a malformed request, a timeout).
    return503OnClosing: false,
    clientErrorHandler: refuseClientErrors(({ code, message }) => graphqlError(message, code.toUpperCase())),
  });
  enforceBodyDeadline(app, config);
  return app;
}

function limitBodies(app: FastifyInstance, config: Config): void {
  bodyLimitPlugin(app, config.secrets.accepted.serviceTokenSecret);
  // A body over the limit answers as GraphQL (the REST adapters map PAYLOAD_TOO_LARGE to 413 payload_too_large).
  app.setErrorHandler((error: { statusCode?: number }, _req, reply) => {
    if (error.statusCode === 413) return reply.code(413).send(PAYLOAD_TOO_LARGE_BODY);
    return reply.send(error);
  });
}

/** A POST to /graphql naming a trusted document runs that document; an unknown one answers PERSISTED_QUERY_NOT_FOUND. */
function acceptTrustedDocuments(app: FastifyInstance, trustedDocuments: Map<string, TrustedDocument>): void {
  app.addHook('preValidation', async (req, reply) => {
    if (req.method !== 'POST' || req.routeOptions.url !== '/graphql') return;
    try {
      resolveTrustedDocument(req, trustedDocuments);
    } catch (error) {
      if (!(error instanceof PersistedQueryNotFound)) throw error;
      return reply.code(400).send(PERSISTED_QUERY_NOT_FOUND_BODY(error.message));
    }
  });
}

/** Each request's context: its caller authenticated once and the principal signed once, for every subgraph fetch. */
function requestContext(
  config: Config,
  callers: CallerAuthenticator,
  executor: GraphExecutor,
): (req: FastifyRequest) => Promise<GatewayContext> {
  return async (req) => {
    const principal = await callers.authenticate(req.headers);
    // App users (and anonymous callers) run only the app's trusted documents where that is enforced;
    // operators and the REST adapters' service principals may send any operation.
    if (
      config.gatewayLimits.trustedDocumentsOnly &&
      (principal.kind === 'user' || principal.kind === 'anonymous') &&
      !req.trustedDocument
    ) {
      throw new AppError(
        'only trusted documents are accepted: send documentId or extensions.persistedQuery.sha256Hash',
        ErrorCode.TRUSTED_DOCUMENT_REQUIRED,
        {
          http: { status: 400 },
        },
      );
    }
    return {
      principal,
      principalToken: await executor.sign(principal),
      requestId: req.id,
      // Only a REST adapter (service token) may ask for a longer deadline, e.g. the sync push's.
      subgraphTimeoutMs: req.serviceCaller ? requestedTimeoutMs(req.headers[CALL_TIMEOUT_HEADER]) : undefined,
    };
  };
}

/** Seconds a caller refused while the gateway drains is told to wait (another copy usually answers at once). */
const DRAIN_RETRY_SECS = 5;

/** A GraphQL answer carrying one error and no data. */
function graphqlError(message: string, code: string): { errors: [{ message: string; extensions: { code: string } }] } {
  return { errors: [{ message, extensions: { code } }] };
}
