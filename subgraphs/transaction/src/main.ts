import '@lib/telemetry/register';
import 'reflect-metadata';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { runSubgraphProcess } from '@lib/federation/run-subgraph';
import { transactionSubgraph } from './app';
import { pruneFeed } from './modules/payment-feed/payment-feed.service';

/**
 * The transaction subgraph and, beside it, the payment feed's retention (none in this process when
 * PAYMENT_FEED_PRUNE_INTERVAL_MS is 0): every interval, and once shortly after start, rows older than
 * PAYMENT_FEED_RETENTION_DAYS are deleted in batches on a connection pool of its own (docs/decisions/0202).
 */
void runSubgraphProcess(transactionSubgraph, async (app, config) => {
  const { retentionDays, pruneIntervalMs } = config.paymentFeed;
  if (pruneIntervalMs === 0) return;
  const orm = await openSubgraphOrm(transactionSubgraph, { ...config, database: { ...config.database, poolMax: 1 } });
  const log = app.log.child({ component: 'payment-feed-pruner' });
  let running: Promise<void> | undefined;
  const prune = () => {
    running ??= pruneFeed(orm.em.fork(), retentionDays)
      .then((pruned) => log.info(pruned, 'payment feed pruned'))
      .catch((error: unknown) => log.warn({ err: error }, 'payment feed pruning failed; tried again at the next interval'))
      .finally(() => (running = undefined));
  };
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    timers.push(setTimeout(prune, 10_000).unref(), setInterval(prune, pruneIntervalMs).unref());
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
    await running;
    await orm.close();
  });
});
