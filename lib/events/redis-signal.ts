import { Redis } from 'ioredis';

/**
 * Signals between copies over Redis pub/sub, carrying no data a reader depends on: a lost message only delays what a
 * periodic re-read or a TTL does anyway. Two channels use it:
 * - the live payment feed's wake-up (docs/decisions/0202-live-payment-events.md): after an intake transaction that
 *   appended feed rows commits, the transaction subgraph publishes the merchant ids; every REST copy re-reads the
 *   feed (the rows are read through the gateway). Without REDIS_URL, the periodic re-read is all;
 * - cache invalidation (`cache-invalidation.ts`, docs/decisions/0010-caches-and-copies.md).
 */
export const PAYMENT_FEED_CHANNEL = 'qris:payment_feed';

/** Another channel than the payment feed's (e.g. cache invalidation): its name and what its loss falls back to. */
export interface SignalChannel {
  channel: string;
  what: string;
  fallback: string;
}

const PAYMENT_FEED: SignalChannel = {
  channel: PAYMENT_FEED_CHANNEL,
  what: 'payment feed',
  fallback: 'live events fall back to the periodic re-read',
};

export interface SignalLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const REDIS_OPTIONS = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 2000,
  commandTimeout: 500,
  disconnectTimeout: 200,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
} as const;

function watch(redis: Redis, what: string, fallback: string, log: SignalLog, onReady?: () => void): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return; // one line per outage
    down = true;
    log.warn({ err: error }, `${what}: Redis unreachable; ${fallback}`);
  });
  redis.on('ready', () => {
    if (down) log.info({}, `${what}: Redis reachable again`);
    down = false;
    onReady?.();
  });
}

async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/** Publishes messages (merchant ids, invalidations) after commit; never throws and never waits for Redis. */
export class RedisSignalPublisher {
  private readonly redis: Redis;

  constructor(
    url: string,
    log: SignalLog,
    private readonly signal: SignalChannel = PAYMENT_FEED,
  ) {
    this.redis = new Redis(url, REDIS_OPTIONS);
    watch(this.redis, `${signal.what} publisher`, signal.fallback, log);
    this.redis.connect().catch(() => undefined);
  }

  publish(messages: Iterable<string>): void {
    if (this.redis.status !== 'ready') return;
    const unique = [...new Set(messages)];
    if (unique.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const message of unique) pipeline.publish(this.signal.channel, message);
    pipeline.exec().catch(() => undefined);
  }

  close(): Promise<void> {
    return quit(this.redis);
  }
}

/** Calls `onSignal(message)` per message; `onResubscribed` after every (re)connection, when signals may have been missed. */
export class RedisSignalSubscriber {
  private readonly redis: Redis;

  constructor(
    url: string,
    log: SignalLog,
    onSignal: (message: string) => void,
    onResubscribed: () => void,
    private readonly signal: SignalChannel = PAYMENT_FEED,
  ) {
    // A subscriber connection queues its SUBSCRIBE until connected, and resubscribes by itself after a reconnect.
    this.redis = new Redis(url, {
      ...REDIS_OPTIONS,
      lazyConnect: false,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      autoResubscribe: true,
    });
    watch(this.redis, `${signal.what} subscriber`, signal.fallback, log, onResubscribed);
    this.redis.on('message', (_channel: string, message: string) => onSignal(message));
  }

  /** Subscribes (queued until connected); resolves once subscribed or after `waitMs`, whichever comes first. */
  async start(waitMs = 2000): Promise<void> {
    const subscribed = this.redis.subscribe(this.signal.channel).catch(() => undefined);
    await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }

  close(): Promise<void> {
    return quit(this.redis);
  }
}
