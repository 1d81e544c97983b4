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
    await cache.load('s1', async () => ({ status: 'live' }));
    await cache.load('s2', async () => ({ status: 'live' }));
    cacheInvalidations.apply('session:s1');
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.get('s2')).toEqual({ status: 'live' });
    cacheInvalidations.apply('merchant:m1');
    expect(cache.get('s2')).toBeUndefined();
  });

  it('does not keep an answer loaded while a message arrived (it may predate the change)', async () => {
    const held = deferred<{ status: string }>();
    const loading = cache.load('m1', () => held.promise);
    cacheInvalidations.apply('merchant:m1'); // the suspension commits while the lookup still holds "active"
    held.resolve({ status: 'active' });
    await expect(loading).resolves.toEqual({ status: 'active' }); // this caller gets what it read
    expect(cache.get('m1')).toBeUndefined(); // the next one reads again
    await cache.load('m1', async () => ({ status: 'suspended' }));
    expect(cache.get('m1')).toEqual({ status: 'suspended' });
  });

  it('follows nothing after its unregistration', async () => {
    await cache.load('s1', async () => ({ status: 'live' }));
    off();
    cacheInvalidations.apply('session:s1');
    expect(cache.get('s1')).toEqual({ status: 'live' });
  });
});
