import '@lib/telemetry/register';
import 'reflect-metadata';
import { Counter } from 'prom-client';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { runSubgraphProcess } from '@lib/federation/run-subgraph';
import { merchantSubgraph } from './app';
import { secretBoxFor } from './context';
import { WebhookDispatcher } from './modules/webhook/webhook-dispatcher';

/**
 * The merchant subgraph and, beside it, the lifecycle webhook dispatcher (none in this process when
 * WEBHOOK_DISPATCH_INTERVAL_MS is 0). The dispatcher has its own connection pool, starts when the server is
 * ready and is stopped (in-flight sends recorded) before the server closes.
 */
void runSubgraphProcess(merchantSubgraph, async (app, config) => {
  if (config.webhooks.dispatchIntervalMs === 0) return;
  const failed = new Counter({
    name: 'webhook_deliveries_failed_total',
    help: 'Lifecycle webhooks that failed their last attempt (operators contact the bank)',
    labelNames: ['bank_code'],
    registers: [app.metricsRegistry],
  });
  const orm = await openSubgraphOrm(merchantSubgraph, config);
  const log = app.log.child({ component: 'webhook-dispatcher' });
  const dispatcher = new WebhookDispatcher({
    knex: orm.em.getKnex(),
    box: secretBoxFor(config),
    log,
    retryScale: config.webhooks.retryScale,
    onFailed: (bankCode) => failed.inc({ bank_code: bankCode }),
  });
  app.addHook('onReady', async () => {
    dispatcher.start(config.webhooks.dispatchIntervalMs);
    log.info({ interval_ms: config.webhooks.dispatchIntervalMs, retry_scale: config.webhooks.retryScale }, 'webhook dispatcher started');
  });
  app.addHook('onClose', async () => {
    await dispatcher.stop();
    await orm.close();
  });
});
