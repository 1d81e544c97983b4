import type { FastifyInstance } from 'fastify';
import type { Config } from '@lib/config/config';
import { includeThreadMetrics } from '@lib/http/metrics';
import { GraphOperations, type OperationExecutor, executorPerAdapter } from '@lib/rest/operation-executor';
import { GraphExecutor, type SubgraphTransportChoice } from '@gateway/src/executor';
import { SUBGRAPHS } from '@subgraphs';
import { AppOperationsThread, halfPools } from './app-operations-thread';

/**
 * The REST process's operations (docs/decisions/0009-how-operations-execute.md): the gateway's executor in this
 * process, running the four subgraphs here too unless REST_SUBGRAPHS=http sends its fetches to their processes. The
 * bank API's operations run on the main thread; the partner, core and point-of-sale APIs' on a thread of their own
 * (REST_APP_OPERATIONS=thread, the default), so that no bank call waits behind them. `subgraphs` replaces the choice
 * and keeps every operation on the main thread (the test stack shares its subgraphs); `warmUp: false` plans each
 * operation at its first request (GraphExecutorOptions.warmUp).
 */
export function restOperations(
  config: Config,
  { subgraphs, warmUp }: { subgraphs?: SubgraphTransportChoice; warmUp?: boolean } = {},
): (app: FastifyInstance) => Promise<OperationExecutor> {
  return async (app) => {
    const transport =
      subgraphs ?? (config.restSubgraphs === 'http' ? { transport: 'http' } : { transport: 'embedded', definitions: SUBGRAPHS });
    const main = async (executorConfig: Config) =>
      new GraphOperations(
        await GraphExecutor.start({ config: executorConfig, subgraphs: transport, registry: app.metricsRegistry, logger: app.log, warmUp }),
        'rest-adapters',
        config.gatewayTimeoutMs,
      );
    if (subgraphs || config.restAppOperations === 'main') return main(config);
    const [banks, thread] = await Promise.all([main(halfPools(config)), AppOperationsThread.start(app.log)]);
    includeThreadMetrics(app.metricsRegistry, (own) => thread.metrics(own));
    return executorPerAdapter({ psp: banks }, new GraphOperations(thread, 'rest-adapters', config.gatewayTimeoutMs));
  };
}
