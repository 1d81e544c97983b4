import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import type { Registry } from 'prom-client';
import { operationMetricsPlugin } from './operation-metrics';

/** What every Apollo Server of the platform (the four subgraphs, the gateway process, REST's in-process gateway) sets alike. */
export const APOLLO_SERVER_SETTINGS = {
  includeStacktraceInErrorResponses: false,
  // The process stops on SIGTERM by closing fastify (lib/http/listen.ts: in-flight requests finish, spans are
  // flushed, exit 0); Apollo's own handler would re-raise the signal and kill the process half-way.
  stopOnTerminationSignals: false,
  // Compact JSON: Apollo's default pretty-prints every response, which costs measurably on 500-row lists.
  stringifyResult: (result: unknown) => JSON.stringify(result),
} as const;

/** Plugins of every Apollo Server here: no inline traces, no cache-control (no cache hints are used; its
 * willResolveField would wrap every field resolver), and graphql_operation_duration_seconds in `registry`. */
export function apolloBasePlugins<TContext extends BaseContext>(registry: Registry): ApolloServerPlugin<TContext>[] {
  return [
    ApolloServerPluginCacheControlDisabled(),
    ApolloServerPluginInlineTraceDisabled(),
    operationMetricsPlugin(registry) as ApolloServerPlugin<TContext>,
  ];
}
