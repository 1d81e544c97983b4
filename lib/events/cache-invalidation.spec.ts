import { InvalidatedCache, cacheInvalidations } from './cache-invalidation';

/** A promise with its resolver, to hold a load open while an invalidation arrives. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('InvalidatedCache', () => {
  let cache: InvalidatedCache<{ status: string }>;
  let off: () => void;
  beforeEach(() => {
    cache = new InvalidatedCache(100, 60_000);
    off = cache.follow([
      { kind: 'session', byKey: true },
      { kind: 'merchant', byKey: false },
    ]);
  });
  afterEach(() => off());

  it('keeps a loaded answer and drops it on a message naming its key', async () => {
    await cache.fetch('s1', async () => ({ status: 'live' }));
    await cache.fetch('s2', async () => ({ status: 'live' }));
    cacheInvalidations.apply('session:s1');
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.get('s2')).toEqual({ status: 'live' });
    cacheInvalidations.apply('merchant:m1');
    expect(cache.get('s2')).toBeUndefined();
  });

  it('does not keep an answer loaded while a message arrived (it may predate the change)', async () => {
    const held = deferred<{ status: string }>();
    const loading = cache.fetch('m1', () => held.promise);
    cacheInvalidations.apply('merchant:m1'); // the suspension commits while the lookup still holds "active"
    held.resolve({ status: 'active' });
    await expect(loading).resolves.toEqual({ status: 'active' }); // this caller gets what it read
    expect(cache.get('m1')).toBeUndefined(); // the next one reads again
    await cache.fetch('m1', async () => ({ status: 'suspended' }));
    expect(cache.get('m1')).toEqual({ status: 'suspended' });
  });

  it('holds at most its maximum of entries, dropping the least recently used', async () => {
    for (let i = 0; i < 100; i++) await cache.fetch(`s${i}`, async () => ({ status: 'live' }));
    expect(cache.get('s0')).toEqual({ status: 'live' }); // s0 used again: s1 is now the least recent
    await cache.fetch('s100', async () => ({ status: 'live' }));
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.get('s0')).toEqual({ status: 'live' });
    expect(cache.get('s100')).toEqual({ status: 'live' });
  });

  it('follows nothing after its unregistration', async () => {
    await cache.fetch('s1', async () => ({ status: 'live' }));
    off();
    cacheInvalidations.apply('session:s1');
    expect(cache.get('s1')).toEqual({ status: 'live' });
  });

  it('runs one load for the callers of a key that ask while it runs, and a new one after a message about the key', async () => {
    const held = deferred<{ status: string }>();
    let loads = 0;
    const load = () => ((loads += 1), held.promise);
    const callers = [cache.fetch('s1', load), cache.fetch('s1', load), cache.fetch('s1', load)];
    expect(loads).toBe(1);
    cacheInvalidations.apply('session:s1'); // a logout while the load reads
    const after = cache.fetch('s1', async () => ((loads += 1), { status: 'ended' }));
    expect(loads).toBe(2);
    held.resolve({ status: 'live' });
    await expect(Promise.all(callers)).resolves.toEqual([{ status: 'live' }, { status: 'live' }, { status: 'live' }]);
    await expect(after).resolves.toEqual({ status: 'ended' });
    expect(cache.get('s1')).toEqual({ status: 'ended' });
  });

  it('shares a failed load among its callers and keeps nothing', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      throw new Error('the merchant subgraph is down');
    };
    const both = await Promise.allSettled([cache.fetch('s1', load), cache.fetch('s1', load)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
    expect(cache.get('s1')).toBeUndefined();
  });
});

describe('InvalidatedCache refresh ahead', () => {
  // lru-cache reads a test clock through its 1 ms time cache: a few real milliseconds after each step
  const tick = () => new Promise((r) => setTimeout(r, 5));
  let now = 0;
  const clock = { now: () => now };
  const advance = async (ms: number) => {
    now += ms;
    await tick();
  };
  let cache: InvalidatedCache<{ version: number }>;
  let loads = 0;
  const load = async () => ({ version: (loads += 1) });
  beforeEach(() => {
    now = 1_000;
    loads = 0;
    cache = new InvalidatedCache(100, 60_000, undefined, clock);
  });

  it('serves a hit within the first five sixths of its TTL without loading', async () => {
    await cache.fetch('k', load);
    await advance(49_000);
    await expect(cache.fetch('k', load)).resolves.toEqual({ version: 1 });
    expect(loads).toBe(1);
  });

  it('serves a hit in the last sixth of its TTL and reloads it in the background, once', async () => {
    await cache.fetch('k', load);
    await advance(51_000);
    const refresh = deferred<{ version: number }>();
    const held = () => ((loads += 1), refresh.promise);
    await expect(cache.fetch('k', held)).resolves.toEqual({ version: 1 });
    await expect(cache.fetch('k', held)).resolves.toEqual({ version: 1 });
    expect(loads).toBe(2);
    refresh.resolve({ version: 2 });
    await tick();
    await advance(30_000); // 81 s after the first load: that answer has expired, the refreshed one has not
    await expect(cache.fetch('k', load)).resolves.toEqual({ version: 2 });
    expect(loads).toBe(2);
  });

  it('never serves an answer older than its TTL: an expired key is loaded before the answer', async () => {
    await cache.fetch('k', load);
    await advance(60_001);
    await expect(cache.fetch('k', load)).resolves.toEqual({ version: 2 });
  });

  it('keeps the entry until it expires when a refresh fails', async () => {
    await cache.fetch('k', load);
    await advance(55_000);
    const failing = async () => {
      loads += 1;
      throw new Error('the merchant subgraph is down');
    };
    await expect(cache.fetch('k', failing)).resolves.toEqual({ version: 1 });
    await tick();
    expect(loads).toBe(2);
    await expect(cache.fetch('k', load)).resolves.toEqual({ version: 1 }); // refreshed again in the background
    await advance(6_000);
    await expect(cache.fetch('k', load)).resolves.toEqual({ version: 3 });
  });
});
