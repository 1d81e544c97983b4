import 'reflect-metadata';
import Fastify from 'fastify';
import { loadConfig } from '../../../lib/config/config';
import { openSubgraphOrm } from '../../../lib/federation/subgraph-definition';
import { runSubgraphProcess } from '../../../lib/federation/run-subgraph';
import { fastifyLoggingOptions } from '../../../lib/logging/logger';
import { merchantSubgraph } from './app';
import { secretBoxFor } from './context';
import { WebhookDispatcher } from './modules/webhook/webhook-dispatcher';

/**
 * The merchant subgraph, then the lifecycle webhook dispatcher beside it (WEBHOOK_DISPATCH_INTERVAL_MS = 0:
 * none in this process). The dispatcher has its own connection pool; it stops claiming at SIGINT/SIGTERM.
 * A send still in flight when the server's own signal handler exits the process is retried after its lease.
 */
async function main(): Promise<void> {
  await runSubgraphProcess(merchantSubgraph);
  const config = loadConfig();
  if (config.webhooks.dispatchIntervalMs === 0) return;
  // The subgraph's pino settings (JSON lines, redaction), for a logger outside any request.
  const log = Fastify(fastifyLoggingOptions(config, 'subgraph-merchant')).log.child({ component: 'webhook-dispatcher' });
  const orm = await openSubgraphOrm(merchantSubgraph, config);
  const dispatcher = new WebhookDispatcher({ knex: orm.em.getKnex(), box: secretBoxFor(config), log, retryScale: config.webhooks.retryScale });
  dispatcher.start(config.webhooks.dispatchIntervalMs);
  log.info({ interval_ms: config.webhooks.dispatchIntervalMs, retry_scale: config.webhooks.retryScale }, 'webhook dispatcher started');
  const stop = () => void dispatcher.stop().finally(() => orm.close());
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
