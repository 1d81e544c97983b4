import type { Config } from '@lib/config/config';
import { GraphOperations } from '@lib/rest/operation-executor';
import type { FastifyInstance } from 'fastify';
import { GraphExecutor, type SubgraphTransportChoice } from '@gateway/src/executor';
import { SUBGRAPHS } from '@subgraphs';

/**
 * The REST process's operations: the gateway's executor in this process (docs/decisions/0009-how-operations-execute.md),
 * running the four subgraphs here too unless REST_SUBGRAPHS=http sends its fetches to their processes
 * (docs/decisions/0009-how-operations-execute.md). `subgraphs` replaces that choice (the test stack shares its subgraphs).
 */
export function restOperations(
  config: Config,
  subgraphs: SubgraphTransportChoice = config.restSubgraphs === 'http'
    ? { transport: 'http' }
    : { transport: 'embedded', definitions: SUBGRAPHS },
): (app: FastifyInstance) => Promise<GraphOperations> {
  return async (app) =>
    new GraphOperations(
      await GraphExecutor.start({ config, subgraphs, registry: app.metricsRegistry, logger: app.log }),
      'rest-adapters',
      config.gatewayTimeoutMs,
    );
}
