import { LRUCache } from 'lru-cache';
import { countLookup } from '../http/cache-metrics';
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
 *
 * Callers ask through `fetch`: the callers of one key share one load (a key in steady use that expired would otherwise
 * load once per request until the first load lands: at 90 events a second, a herd queued behind the operations
 * threads), and a hit in the last sixth of its TTL reloads the key in the background, so that a key in steady use
 * never makes a caller wait. Nothing served is older than the TTL.
 */
export class InvalidatedCache<V extends object> {
  private readonly entries: LRUCache<string, { value: V; refreshAt: number }>;
  /** Loads running, by key. */
  private readonly loading = new Map<string, Promise<V>>();
  /** Counts forgets and clears, so a load can tell whether one happened while it ran. */
  private generation = 0;

  /**
   * `lookups`: the cache's name in `cache_lookups_total` (lib/http/cache-metrics.ts), counted by `fetch`; `clock`: the
   * milliseconds TTLs are measured in (a test's own).
   */
  constructor(
    max: number,
    private readonly ttlMs: number,
    private readonly lookups?: string,
    private readonly clock: { now(): number } = performance,
  ) {
    // Bounded by size, one per entry, not by `max`: with `max` lru-cache allocates its arrays for every entry up front
    // (3.2 MB and 10 ms for 100,000), for each cache of each process or test stack, however few entries it holds.
    this.entries = new LRUCache({ maxSize: max, sizeCalculation: () => 1, ttl: ttlMs, perf: clock });
  }

  /** Drops the entry a message of each kind names (`byKey`), or every entry; returns the unregistration. */
  follow(kinds: { kind: InvalidationKind; byKey: boolean }[]): () => void {
    const offs = kinds.map(({ kind, byKey }) =>
      cacheInvalidations.on(kind, { ...(byKey ? { forget: (key: string) => this.forget(key) } : {}), clear: () => this.clear() }),
    );
    return () => offs.forEach((off) => off());
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * The cached value of `key`, else `load`'s, kept for `ttlMs` (default: the cache's). A hit due for a refresh starts
   * `load` in the background; a failed refresh leaves the entry to expire (the next caller's load reports the error).
   */
  async fetch(key: string, load: () => Promise<V>, ttlMs?: (value: V) => number): Promise<V> {
    const cached = this.entries.get(key);
    if (this.lookups) countLookup(this.lookups, cached !== undefined);
    if (!cached) return this.load(key, load, ttlMs);
    if (this.clock.now() >= cached.refreshAt) this.load(key, load, ttlMs).catch(() => undefined);
    return cached.value;
  }

  /** Runs `load` (or joins the one running for `key`) and keeps its answer, unless an invalidation came meanwhile. */
  private load(key: string, load: () => Promise<V>, ttlMs?: (value: V) => number): Promise<V> {
    const running = this.loading.get(key);
    if (running) return running;
    const generation = this.generation;
    const loaded = load()
      .then((value) => {
        if (generation === this.generation) {
          const ttl = ttlMs?.(value) ?? this.ttlMs;
          this.entries.set(key, { value, refreshAt: this.clock.now() + (ttl * 5) / 6 }, { ttl });
        }
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      });
    this.loading.set(key, loaded);
    return loaded;
  }

  /** Drops `key`; a caller from now on does not join a load that started before (it may read what changed). */
  forget(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
    this.loading.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
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
