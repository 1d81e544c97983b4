import '@lib/telemetry/register';
import 'reflect-metadata';
import type { FastifyBaseLogger } from 'fastify';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { runSubgraphProcess } from '@lib/federation/run-subgraph';
import { transactionSubgraph } from './app';
import { ensurePartitions } from './modules/partition/partition.service';
import { pruneFeed } from './modules/payment-feed/payment-feed.service';

/**
 * The transaction subgraph and, beside it, two upkeep loops on a connection pool of their own (none when both
 * intervals are 0):
 * - the payment feed's retention (PAYMENT_FEED_PRUNE_INTERVAL_MS): every interval, and once shortly after start, rows
 *   older than PAYMENT_FEED_RETENTION_DAYS are deleted in batches (docs/decisions/0202-live-payment-events.md);
 * - the monthly partitions of transactions and payment events (PARTITION_ENSURE_INTERVAL_MS): at start and every
 *   interval, the current month and PARTITION_MONTHS_AHEAD after it are made sure of (docs/decisions/0208-partitioned-history.md).
 */
void runSubgraphProcess(transactionSubgraph, async (app, config) => {
  const { retentionDays, pruneIntervalMs } = config.paymentFeed;
  const { monthsAhead, ensureIntervalMs } = config.partitions;
  if (pruneIntervalMs === 0 && ensureIntervalMs === 0) return;
  const orm = await openSubgraphOrm(transactionSubgraph, { ...config, database: { ...config.database, poolMax: 1 } });
  const running = new Set<Promise<void>>();
  /** Runs `work` unless its previous run is still going; failures are logged and tried again at the next interval. */
  const loop = (log: FastifyBaseLogger, work: () => Promise<object>, done: string, failed: string) => {
    let current: Promise<void> | undefined;
    return () => {
      if (current) return;
      current = work()
        .then((result) => log.info(result, done))
        .catch((error: unknown) => log.warn({ err: error }, failed))
        .finally(() => {
          running.delete(current!);
          current = undefined;
        });
      running.add(current);
    };
  };
  const prune = loop(
    app.log.child({ component: 'payment-feed-pruner' }),
    () => pruneFeed(orm.em.fork(), retentionDays),
    'payment feed pruned',
    'payment feed pruning failed; tried again at the next interval',
  );
  const ensure = loop(
    app.log.child({ component: 'partitions' }),
    () => ensurePartitions(orm.em.fork(), monthsAhead),
    'monthly partitions ensured',
    'ensuring monthly partitions failed; tried again at the next interval',
  );
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    if (pruneIntervalMs > 0) timers.push(setTimeout(prune, 10_000).unref(), setInterval(prune, pruneIntervalMs).unref());
    if (ensureIntervalMs > 0) {
      ensure();
      timers.push(setInterval(ensure, ensureIntervalMs).unref());
    }
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(running);
    await orm.close();
  });
});
