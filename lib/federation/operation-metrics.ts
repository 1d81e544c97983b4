import type { ApolloServerPlugin } from '@apollo/server';
import { Histogram, type Registry } from 'prom-client';
import { BoundedLabel } from '../http/bounded-label';

/**
 * Apollo plugin: `graphql_operation_duration_seconds{operation, outcome}` per GraphQL operation of this server
 * (the gateway: the callers' operations; a subgraph: the gateway's fetches, named after them). `outcome` is `ok`,
 * or the first error's code. Operation names are bounded (BoundedLabel).
 */
export function operationMetricsPlugin(registry: Registry): ApolloServerPlugin {
  const duration = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations by name and outcome (ok or the first error code)',
    labelNames: ['operation', 'outcome'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const names = new BoundedLabel();
  return {
    async requestDidStart() {
      const started = process.hrtime.bigint();
      return {
        async willSendResponse({ operationName, errors }) {
          const code = errors?.[0]?.extensions?.code;
          duration.observe(
            { operation: names.of(operationName), outcome: errors?.length ? (typeof code === 'string' ? code : 'error') : 'ok' },
            Number(process.hrtime.bigint() - started) / 1e9,
          );
        },
      };
    },
  };
}
