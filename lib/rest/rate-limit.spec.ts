import { randomUUID } from 'node:crypto';
import { type AddressInfo, type Socket, createServer, connect } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest, type LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { type RateLimitingOptions, rateLimitRouteConfig, registerRateLimiting } from './rate-limit';

const REDIS_URL = 'redis://127.0.0.1:6379';
const UNREACHABLE_REDIS_URL = 'redis://127.0.0.1:6390';
const PREFIX = `qris-test:ratelimit:${process.pid}:${randomUUID()}:`;

const apps: FastifyInstance[] = [];

/** A small app like the REST one: an authentication preHandler sets the key, then the limit applies. */
async function buildApp(options: RateLimitingOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  apps.push(app);
  await registerRateLimiting(app, options);
  const authenticate = async (req: FastifyRequest) => {
    const credential = req.headers['x-credential'];
    if (typeof credential === 'string') req.rateLimitKey = `test:${credential}`;
  };
  app.get('/fast', { preHandler: authenticate, ...rateLimitRouteConfig({ max: 3, windowSecs: 1 }) }, async () => ({ ok: true }));
  app.get('/slow', { preHandler: [authenticate], ...rateLimitRouteConfig({ max: 5, windowSecs: 60 }) }, async () => ({ ok: true }));
  app.get('/free', { preHandler: authenticate, ...rateLimitRouteConfig(undefined) }, async () => ({ ok: true }));
  await app.ready();
  return app;
}

function call(app: FastifyInstance, url: string, credential?: string, method: 'GET' | 'HEAD' = 'GET'): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: credential ? { 'x-credential': credential } : {} });
}

async function callTimes(app: FastifyInstance, times: number, url: string, credential?: string): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i++) responses.push(await call(app, url, credential));
  return responses;
}

function expectLimited(response: LightMyRequestResponse, status: number, limit: number, remaining: number, windowSecs: number): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  // Unix seconds at the end of the window: in the future, no later than the window allows.
  const reset = Number(response.headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThan(now);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now + windowSecs));
}

function expect429(response: LightMyRequestResponse, limit: number, windowSecs: number): void {
  expectLimited(response, 429, limit, 0, windowSecs);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSecs);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({
    error: `rate limit exceeded, retry in ${retryAfter} s`,
    code: 'rate_limit_exceeded',
    retry_after_secs: retryAfter,
  });
}

/** A TCP proxy to the local Redis that can hold every byte back, as a hung Redis would, and release them. */
async function startRedisProxy(): Promise<{ url: string; hold(): void; release(): void; close(): Promise<void> }> {
  let held = false;
  const pending: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const forward = (from: Socket, to: Socket) => from.on('data', (chunk) => (held ? pending.push(() => to.write(chunk)) : to.write(chunk)));
  const server = createServer((client) => {
    const upstream = connect(6379, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => (client.destroy(), upstream.destroy()));
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: () => void (held = true),
    release: () => {
      held = false;
      pending.splice(0).forEach((write) => write());
    },
    close: async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function deleteTestKeys(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

afterAll(async () => {
  await deleteTestKeys();
});

describe('rateLimitRouteConfig', () => {
  it('is empty without a limit and refuses nonsense', () => {
    expect(rateLimitRouteConfig()).toEqual({});
    expect(rateLimitRouteConfig({ max: 60, windowSecs: 60 })).toEqual({ config: { restRateLimit: { max: 60, windowSecs: 60 } } });
    expect(() => rateLimitRouteConfig({ max: 0, windowSecs: 60 })).toThrow(/positive integers/);
    expect(() => rateLimitRouteConfig({ max: 10, windowSecs: 0.5 })).toThrow(/positive integers/);
  });
});

describe.each([
  ['in memory', (): RateLimitingOptions => ({})],
  ['in Redis', (): RateLimitingOptions => ({ redisUrl: REDIS_URL, redisKeyPrefix: `${PREFIX}${randomUUID()}:` })],
])('rate limiting %s', (_store, options) => {
  it('answers the 4th request of a 3/1 s route with 429, the error body, Retry-After and the rate headers', async () => {
    const app = await buildApp(options());
    const responses = await callTimes(app, 4, '/fast', 'a');
    responses.slice(0, 3).forEach((response, i) => {
      expectLimited(response, 200, 3, 2 - i, 1);
      expect(response.headers['retry-after']).toBeUndefined();
    });
    expect429(responses[3], 3, 1);
    expect(responses[3].headers['retry-after']).toBe('1');
  });

  it('counts each credential, the IP fallback and each route separately', async () => {
    const app = await buildApp(options());
    const exhausted = await callTimes(app, 6, '/slow', 'a');
    expect429(exhausted[5], 5, 60);
    expectLimited(exhausted[4], 200, 5, 0, 60);

    expectLimited(await call(app, '/slow', 'b'), 200, 5, 4, 60); // another credential
    expectLimited(await call(app, '/slow'), 200, 5, 4, 60); // no credential: keyed by IP
    expectLimited(await call(app, '/fast', 'a'), 200, 3, 2, 1); // another route, same credential
  });

  it('does not limit routes without a limit', async () => {
    const app = await buildApp(options());
    for (const response of await callTimes(app, 10, '/free', 'a')) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('counts HEAD together with GET', async () => {
    const app = await buildApp(options());
    await callTimes(app, 2, '/fast', 'h');
    const head = await call(app, '/fast', 'h', 'HEAD');
    expectLimited(head, 200, 3, 0, 1);
    expect429(await call(app, '/fast', 'h'), 3, 1);
  });

  it('starts a new window when the old one ends', async () => {
    const app = await buildApp(options());
    const responses = await callTimes(app, 4, '/fast', 'w');
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expectLimited(await call(app, '/fast', 'w'), 200, 3, 2, 1);
  });
});

describe('rate limiting in Redis across processes', () => {
  it('falls back to per-process limits, without waiting, when Redis is unreachable', async () => {
    const app = await buildApp({ redisUrl: UNREACHABLE_REDIS_URL, redisKeyPrefix: `${PREFIX}down:` });
    // Waiting for Redis would take its command timeout (200 ms) per request, or its connect timeout (2 s); the app's
    // start is not timed (over a second on a loaded machine).
    const started = Date.now();
    const responses = await callTimes(app, 4, '/fast', 'd');
    expect(Date.now() - started).toBeLessThan(600);
    responses.slice(0, 3).forEach((response, i) => expectLimited(response, 200, 3, 2 - i, 1));
    expect429(responses[3], 3, 1);
    expectLimited(await call(app, '/slow', 'd'), 200, 5, 4, 60);
  });

  it('falls back to per-process limits at once when Redis hangs, and does not wait for it again for a while', async () => {
    const proxy = await startRedisProxy();
    try {
      const app = await buildApp({ redisUrl: proxy.url, redisKeyPrefix: `${PREFIX}hung:` });
      await callTimes(app, 2, '/slow', 'h');
      expectLimited(await call(app, '/slow', 'h'), 200, 5, 2, 60); // shared counter: third request

      proxy.hold();
      let started = Date.now();
      expectLimited(await call(app, '/slow', 'h'), 200, 5, 4, 60); // local counter, after the command timeout
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect(Date.now() - started).toBeLessThan(1000);
      started = Date.now();
      expectLimited(await call(app, '/slow', 'h'), 200, 5, 3, 60); // Redis skipped: no wait
      expect(Date.now() - started).toBeLessThan(150);
      proxy.release();
      await app.close();
    } finally {
      await proxy.close();
    }
  });

  it('shares one counter between two app instances', async () => {
    const options = { redisUrl: REDIS_URL, redisKeyPrefix: `${PREFIX}shared:` };
    const [first, second] = [await buildApp(options), await buildApp(options)];
    await callTimes(first, 3, '/slow', 's');
    expectLimited(await call(second, '/slow', 's'), 200, 5, 1, 60);
    expectLimited(await call(first, '/slow', 's'), 200, 5, 0, 60);
    expect429(await call(second, '/slow', 's'), 5, 60);
    expect429(await call(first, '/slow', 's'), 5, 60);
    expectLimited(await call(second, '/slow', 'other'), 200, 5, 4, 60);
  });
});
