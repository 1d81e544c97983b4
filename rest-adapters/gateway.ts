import type { FastifyInstance } from 'fastify';
import type { Config } from '@lib/config/config';
import { includeThreadMetrics } from '@lib/http/metrics';
import { type GraphRunner, GraphOperations, type OperationExecutor, executorPerAdapter } from '@lib/rest/operation-executor';
import { GraphExecutor, type SubgraphTransportChoice } from '@gateway/src/executor';
import { SUBGRAPHS } from '@subgraphs';
import { OperationsThread } from './operations-thread';

/**
 * The REST process's operations (docs/decisions/0009-how-operations-execute.md): the gateway's executor in this
 * process, running the four subgraphs here too unless REST_SUBGRAPHS=http sends its fetches to their processes. By
 * default (REST_OPERATIONS=threads) the bank API's operations run on one worker thread and the partner, core and
 * point-of-sale APIs' on another, each with its own executor, so that no bank call waits behind an app's list and the
 * main thread stays free for HTTP. `subgraphs` replaces the choice and keeps every operation on the main thread (the
 * test stack shares its subgraphs); `warmUp: false` plans each operation at its first request
 * (GraphExecutorOptions.warmUp).
 */
export function restOperations(
  config: Config,
  { subgraphs, warmUp }: { subgraphs?: SubgraphTransportChoice; warmUp?: boolean } = {},
): (app: FastifyInstance) => Promise<OperationExecutor> {
  return async (app) => {
    const transport =
      subgraphs ?? (config.restSubgraphs === 'http' ? { transport: 'http' } : { transport: 'embedded', definitions: SUBGRAPHS });
    const operations = (runner: GraphRunner) => new GraphOperations(runner, 'rest-adapters', config.gatewayTimeoutMs);
    if (subgraphs || config.restOperations === 'main') {
      return operations(
        await GraphExecutor.start({ config, subgraphs: transport, registry: app.metricsRegistry, logger: app.log, warmUp }),
      );
    }
    const [bank, others] = await Promise.all([OperationsThread.start(app.log, 'bank'), OperationsThread.start(app.log, 'app')]);
    includeThreadMetrics(app.metricsRegistry, async (own) => others.metrics(await bank.metricsParts([own])));
    return executorPerAdapter({ psp: operations(bank) }, operations(others));
  };
}
