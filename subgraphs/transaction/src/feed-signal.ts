import type { Config } from '@lib/config/config';
import { RedisSignalPublisher, type SignalLog } from '@lib/events/redis-signal';

/**
 * The transaction process's publisher of the live feed's wake-up signal (lib/events/redis-signal.ts), one per Redis
 * URL, opened with the subgraph's server and closed with it (counted: several in-process stacks may share one).
 */
const publishers = new Map<string, { publisher: RedisSignalPublisher; users: number }>();

export type FeedSignal = (merchantIds: Iterable<string>) => void;

/** Publishes merchant ids after a commit; a no-op without REDIS_URL (or before the server opened the publisher). */
export function feedSignalOf(config: Config | undefined): FeedSignal | undefined {
  const entry = config?.redisUrl ? publishers.get(config.redisUrl) : undefined;
  return entry ? (ids) => entry.publisher.publish(ids) : undefined;
}

export function openFeedSignal(config: Config, log: SignalLog): () => Promise<void> {
  const url = config.redisUrl;
  if (!url) return async () => undefined;
  const entry = publishers.get(url) ?? { publisher: new RedisSignalPublisher(url, log), users: 0 };
  entry.users += 1;
  publishers.set(url, entry);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    publishers.delete(url);
    await entry.publisher.close();
  };
}
