import '@lib/telemetry/register';
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { Registry } from 'prom-client';
import { loadConfig } from '@lib/config/config';
import { subscribeCacheInvalidation } from '@lib/events/cache-invalidation';
import { mergedMetrics } from '@lib/http/metrics';
import { fastifyLoggingOptions } from '@lib/logging/logger';
import { GraphExecutor } from '@gateway/src/executor';
import { SUBGRAPHS } from '@subgraphs';
import { type FromThread, type ToThread, threadPools, withTrace } from './operations-thread';

/**
 * An operations thread (operations-thread.ts): an executor of its own, on the subgraphs as REST_SUBGRAPHS says,
 * answering the main thread's operations and metrics.
 */
async function main(port: NonNullable<typeof parentPort>, name: string): Promise<void> {
  const config = threadPools(loadConfig());
  const log = pino(fastifyLoggingOptions(config, 'rest').logger as pino.LoggerOptions).child({ thread: name });
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'rest', thread: name });
  const executor = await GraphExecutor.start({
    config,
    subgraphs: config.restSubgraphs === 'http' ? { transport: 'http' } : { transport: 'embedded', definitions: SUBGRAPHS },
    registry,
    logger: log,
  });
  // The subgraphs' caches in this thread are dropped when their data changes, as the main thread's are.
  await subscribeCacheInvalidation(config.redisUrl, log);
  const answer = (message: FromThread) => port.postMessage(message);
  port.on('message', (message: ToThread) => {
    const work =
      message.kind === 'metrics'
        ? registry.getMetricsAsJSON().then(async (mine) => {
            const parts = [...message.parts, mine];
            return message.render ? { metrics: await mergedMetrics(parts) } : { parts };
          })
        : withTrace(message.trace, () => executor.execute(message.request, message.caller)).then((result) => ({ answer: result }));
    work.then(
      (reply) => answer({ kind: 'answer', id: message.id, ...reply }),
      (error: Error) => answer({ kind: 'answer', id: message.id, error: error.message }),
    );
  });
  answer({ kind: 'ready' });
}

if (parentPort) {
  const port = parentPort;
  main(port, (workerData as { name: string }).name).catch((error: Error) =>
    port.postMessage({ kind: 'failed', message: error.message } satisfies FromThread),
  );
}
