import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface CachedResponse {
  body: string;
  etag: string;
}

/**
 * Serialised responses of cacheable routes keyed by URL, for `ttlSecs` (0 disables storing; ETags are
 * still computed). Bounded in entries, so a crawl of every district cannot grow it without limit.
 */
export class ResponseCache {
  private readonly entries?: LRUCache<string, CachedResponse>;

  constructor(
    readonly ttlSecs: number,
    maxEntries = 20_000,
    private readonly visibility: 'public' | 'private' = 'public',
  ) {
    if (ttlSecs > 0) this.entries = new LRUCache({ max: maxEntries, ttl: ttlSecs * 1000 });
  }

  get(key: string): CachedResponse | undefined {
    return this.entries?.get(key);
  }

  store(key: string, body: string): CachedResponse {
    const entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    this.entries?.set(key, entry);
    return entry;
  }

  /** Drops every entry (a change they may hold was made elsewhere). */
  clear(): void {
    this.entries?.clear();
  }

  get cacheControl(): string {
    return this.ttlSecs > 0 ? `${this.visibility}, max-age=${this.ttlSecs}` : 'no-cache';
  }
}
