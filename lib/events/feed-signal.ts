import { Redis } from 'ioredis';

/**
 * The wake-up signal of the live payment feed (docs/decisions/0202-live-payment-events.md): after an intake
 * transaction that appended feed rows commits, the transaction subgraph publishes each merchant id on a Redis
 * channel; every REST copy subscribes and re-reads that merchant's feed from its streams' last ids. The signal
 * carries no data (the rows are read through the gateway), so a lost message only delays an event until the
 * streams' periodic re-read. Without REDIS_URL there is no signal: the periodic re-read is all.
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

/** Publishes merchant ids after commit; never throws and never waits for Redis (a lost signal only delays). */
export class FeedSignalPublisher {
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

  publish(merchantIds: Iterable<string>): void {
    if (this.redis.status !== 'ready') return;
    const ids = [...new Set(merchantIds)];
    if (ids.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.publish(this.signal.channel, id);
    pipeline.exec().catch(() => undefined);
  }

  close(): Promise<void> {
    return quit(this.redis);
  }
}

/** Calls `onSignal(merchantId)` per message; `onResubscribed` after every (re)connection, when signals may have been missed. */
export class FeedSignalSubscriber {
  private readonly redis: Redis;

  constructor(
    url: string,
    log: SignalLog,
    onSignal: (merchantId: string) => void,
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
