import type { FastifyInstance } from 'fastify';
import type { Config } from '@lib/config/config';
import { includeThreadMetrics } from '@lib/http/metrics';
import { type GraphRunner, GraphOperations, type OperationExecutor, executorPerAdapter } from '@lib/rest/operation-executor';
import { GraphExecutor, type SubgraphTransportChoice } from '@gateway/src/executor';
import { OperationsThread } from './operations-thread';

/**
 * The REST process's operations (docs/decisions/0009-how-operations-execute.md): the gateway's executor, on the four
 * subgraphs run in this process unless REST_SUBGRAPHS=http sends its fetches to their processes. The bank API's
 * operations run on one worker thread and the partner, core and point-of-sale APIs' on another, each with its own
 * executor, so that no bank call waits behind an app's list and the main thread stays free for HTTP. Tests, which run
 * from TypeScript sources (the threads' entry is built JavaScript), give `subgraphs`: one executor on this thread over
 * them; `warmUp: false` plans each operation at its first request (GraphExecutorOptions.warmUp).
 */
export function restOperations(
  config: Config,
  { subgraphs, warmUp }: { subgraphs?: SubgraphTransportChoice; warmUp?: boolean } = {},
): (app: FastifyInstance) => Promise<OperationExecutor> {
  return async (app) => {
    const operations = (runner: GraphRunner) => new GraphOperations(runner, 'rest-adapters', config.gatewayTimeoutMs);
    if (subgraphs) {
      return operations(await GraphExecutor.start({ config, subgraphs, registry: app.metricsRegistry, logger: app.log, warmUp }));
    }
    const [bank, others] = await Promise.all([OperationsThread.start(app.log, 'bank'), OperationsThread.start(app.log, 'app')]);
    includeThreadMetrics(app.metricsRegistry, async (own) => others.metrics(await bank.metricsParts([own])));
    return executorPerAdapter({ psp: operations(bank) }, operations(others));
  };
}
