import type { FastifyInstance } from 'fastify';
import { Kind, OperationTypeNode, parse } from 'graphql';
import type { Config } from '@lib/config/config';
import { includeThreadMetrics } from '@lib/http/metrics';
import { type GraphRunner, GraphOperations, type OperationExecutor, executorChoosing } from '@lib/rest/operation-executor';
import { GraphExecutor, type SubgraphTransportChoice } from '@gateway/src/executor';
import { LeastBusy, OperationsThread, THREADS, type ThreadName } from './operations-thread';

/**
 * The REST process's operations (docs/decisions/0009-how-operations-execute.md): the gateway's executor, on the four
 * subgraphs run in this process unless REST_SUBGRAPHS=http sends its fetches to their processes. The bank API's
 * reads run on two worker threads, its writes (event and settlement batches) on one, and the partner, core and
 * point-of-sale APIs' on two more (THREADS), each with its own executor, so that no bank lookup waits behind a batch of
 * events, a list or an app's call, no app read behind another's long one, and the main thread stays free for HTTP.
 * Tests, which run from TypeScript sources (the threads' entry is built JavaScript), give `subgraphs`: one executor on
 * this thread over them; `warmUp: false` plans each operation at its first request (GraphExecutorOptions.warmUp).
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
    const start = (role: ThreadName) =>
      Promise.all(
        Array.from({ length: THREADS[role] }, (_, i) => OperationsThread.start(app.log, THREADS[role] > 1 ? `${role}-${i + 1}` : role)),
      );
    const [bank, intake, others] = await Promise.all([start('bank'), start('intake'), start('app')]);
    // Each thread adds its series to the scrape; the last merges them (the main thread pays nothing).
    const threads = [...bank, ...intake, ...others];
    includeThreadMetrics(app.metricsRegistry, async (own) => {
      let parts = [own];
      for (const thread of threads.slice(0, -1)) parts = await thread.metricsParts(parts);
      return threads[threads.length - 1].metrics(parts);
    });
    return executorChoosing<ThreadName>(
      { bank: operations(new LeastBusy(bank)), intake: operations(new LeastBusy(intake)), app: operations(new LeastBusy(others)) },
      (operation, { adapter }) => (adapter !== 'psp' ? 'app' : isMutation(operation) ? 'intake' : 'bank'),
    );
  };
}

const mutations = new Map<string, boolean>();

/** Whether a fixed operation is a mutation (parsed once per operation name). */
function isMutation({ name, document }: { name: string; document: string }): boolean {
  let mutation = mutations.get(name);
  if (mutation === undefined) {
    const definition = parse(document).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    mutation = definition?.operation === OperationTypeNode.MUTATION;
    mutations.set(name, mutation);
  }
  return mutation;
}
