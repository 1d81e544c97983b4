import { createHash } from 'node:crypto';
import { InvalidatedCache, type InvalidationKind } from '../events/cache-invalidation';

export interface CachedResponse {
  body: string;
  etag: string;
}

/**
 * Serialised responses of cacheable routes keyed by URL, for `ttlSecs` (0 disables storing; ETags are
 * still computed). Bounded in entries, so a crawl of every district cannot grow it without limit. A key in steady use
 * is computed again shortly before it expires, once, while the cached answer is still served (InvalidatedCache).
 */
export class ResponseCache {
  private readonly entries?: InvalidatedCache<CachedResponse>;

  constructor(
    readonly ttlSecs: number,
    maxEntries = 20_000,
    private readonly visibility: 'public' | 'private' = 'public',
  ) {
    if (ttlSecs > 0) this.entries = new InvalidatedCache(maxEntries, ttlSecs * 1000, 'rest_responses');
  }

  /** The answer of `key`: cached, or made by `body` and stored unless an invalidation came meanwhile. */
  async fetch(key: string, body: () => Promise<string>): Promise<CachedResponse> {
    const compute = async () => entryOf(await body());
    return this.entries ? this.entries.fetch(key, compute) : compute();
  }

  /** Drops every entry on a message of `kind` (a change they may hold was made elsewhere); returns the unregistration. */
  clearOn(kind: InvalidationKind): () => void {
    return this.entries?.follow([{ kind, byKey: false }]) ?? (() => undefined);
  }

  get cacheControl(): string {
    return this.ttlSecs > 0 ? `${this.visibility}, max-age=${this.ttlSecs}` : 'no-cache';
  }
}

function entryOf(body: string): CachedResponse {
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}
