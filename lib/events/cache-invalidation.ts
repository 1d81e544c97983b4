import { LRUCache } from 'lru-cache';
import { PgListener } from './pg-listener';
import { RedisSignalPublisher, RedisSignalSubscriber, type SignalChannel, type SignalLog } from './redis-signal';

/**
 * Invalidation of per-process caches across copies (docs/decisions/0010-caches-and-copies.md).
 *
 * Source: triggers in the merchant schema NOTIFY `kind:key` on the PostgreSQL channel `qris_invalidate` when a
 * session, credential, membership or merchant status changes; PostgreSQL delivers it only on commit. Relay: each
 * merchant process LISTENs and republishes on the Redis channel `qris:invalidate` (several copies relay the same
 * message: dropping a cache entry twice is harmless). Sinks: every REST and gateway copy subscribes and drops the
 * entry from the caches registered for that kind; after a (re)connection it drops everything, as messages may have
 * been missed. Without Redis the caches' TTLs remain the bound.
 */
export const INVALIDATION_PG_CHANNEL = 'qris_invalidate';
export const INVALIDATION_SIGNAL: SignalChannel = {
  channel: 'qris:invalidate',
  what: 'cache invalidation',
  fallback: 'cached credentials and sessions expire by their TTL only',
};

export type InvalidationKind = 'session' | 'partner_credential' | 'partner' | 'bank_credential' | 'membership' | 'merchant';

interface Sink {
  /** Drops one key; absent: any message of the kind drops everything. */
  forget?: (key: string) => void;
  clear: () => void;
}

/** The caches of this process, by the kind of change that invalidates them. */
class InvalidationRegistry {
  private readonly sinks = new Map<InvalidationKind, Set<Sink>>();

  /** Registers a cache; returns its unregistration. */
  on(kind: InvalidationKind, sink: Sink): () => void {
    const set = this.sinks.get(kind) ?? new Set<Sink>();
    set.add(sink);
    this.sinks.set(kind, set);
    return () => set.delete(sink);
  }

  /** Applies one `kind:key` message. */
  apply(message: string): void {
    const at = message.indexOf(':');
    const kind = message.slice(0, at) as InvalidationKind;
    const key = message.slice(at + 1);
    for (const sink of this.sinks.get(kind) ?? []) {
      if (sink.forget) sink.forget(key);
      else sink.clear();
    }
  }

  clearAll(): void {
    for (const set of this.sinks.values()) for (const sink of set) sink.clear();
  }
}

export const cacheInvalidations = new InvalidationRegistry();

/**
 * A bounded cache of this process that invalidation messages drop entries from (`follow`). An answer loaded while a
 * message arrived is returned but not stored: it may predate the change the message is for (a lookup that read
 * `active` just before a suspension committed must not be cached for the TTL).
 */
export class InvalidatedCache<V extends object> {
  private readonly entries: LRUCache<string, V>;
  /** Counts forgets and clears, so a load can tell whether one happened while it ran. */
  private generation = 0;

  constructor(max: number, ttlMs: number) {
    this.entries = new LRUCache({ max, ttl: ttlMs });
  }

  /** Drops the entry a message of each kind names (`byKey`), or every entry; returns the unregistration. */
  follow(kinds: { kind: InvalidationKind; byKey: boolean }[]): () => void {
    const offs = kinds.map(({ kind, byKey }) =>
      cacheInvalidations.on(kind, { ...(byKey ? { forget: (key: string) => this.forget(key) } : {}), clear: () => this.clear() }),
    );
    return () => offs.forEach((off) => off());
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Runs `load` and keeps its answer for `ttlMs` (default: the cache's), unless an invalidation came meanwhile. */
  async load(key: string, load: () => Promise<V>, ttlMs?: (value: V) => number): Promise<V> {
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.entries.set(key, value, ttlMs ? { ttl: ttlMs(value) } : undefined);
    return value;
  }

  forget(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

/**
 * Subscribes this process's caches to the Redis channel (one subscription per Redis URL, counted: several in-process
 * stacks may share it). Returns the closer.
 */
const subscriptions = new Map<string, { subscriber: RedisSignalSubscriber; users: number }>();

export async function subscribeCacheInvalidation(redisUrl: string | undefined, log: SignalLog): Promise<() => Promise<void>> {
  if (!redisUrl) return async () => undefined;
  let entry = subscriptions.get(redisUrl);
  if (!entry) {
    const subscriber = new RedisSignalSubscriber(
      redisUrl,
      log,
      (message) => cacheInvalidations.apply(message),
      () => cacheInvalidations.clearAll(),
      INVALIDATION_SIGNAL,
    );
    entry = { subscriber, users: 0 };
    subscriptions.set(redisUrl, entry);
    await subscriber.start();
  }
  entry.users += 1;
  const held = entry;
  return async () => {
    held.users -= 1;
    if (held.users > 0) return;
    subscriptions.delete(redisUrl);
    await held.subscriber.close();
  };
}

/**
 * The relay of the merchant process: LISTEN on PostgreSQL, PUBLISH on Redis. The listening connection reconnects
 * after a loss (a restart of PostgreSQL); messages sent while it was away are lost, which the caches' TTLs bound.
 */
export class InvalidationRelay {
  private readonly listener: PgListener;
  private readonly publisher: RedisSignalPublisher;

  constructor(databaseUrl: string, redisUrl: string, log: SignalLog) {
    this.publisher = new RedisSignalPublisher(redisUrl, log, INVALIDATION_SIGNAL);
    this.listener = new PgListener({
      databaseUrl,
      channel: INVALIDATION_PG_CHANNEL,
      what: 'cache invalidation relay',
      log,
      onNotify: (payload) => {
        if (payload) this.publisher.publish([payload]);
      },
    });
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  async close(): Promise<void> {
    await this.listener.close();
    await this.publisher.close();
  }
}

/** The merchant subgraph's `open`: the relay, when Redis is configured. */
export function openInvalidationRelay(redisUrl: string | undefined, databaseUrl: string, log: SignalLog): () => Promise<void> {
  if (!redisUrl) return async () => undefined;
  const relay = new InvalidationRelay(databaseUrl, redisUrl, log);
  void relay.start();
  return () => relay.close();
}
