import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { scopedPlugin } from '../http/scoped-plugin';
import { HttpError } from './error-body';

/**
 * Per-route, per-credential rate limits of the REST adapters (psp-api.md §8, partner-api.md §8).
 *
 * A route opts in with `rateLimit: { max, windowSecs, budget? }`; the app factory spreads `rateLimitRouteConfig(…)`
 * into its route options after calling `registerRateLimiting` once. The counter key is the route (method
 * and URL pattern; HEAD shares GET's) plus `req.rateLimitKey`, which the route's authentication step sets
 * (`psp:<key_id>`, `partner:<credential_id>`), else the client IP (`ip:<addr>`, IPv6 by /64).
 *
 * Routes with the same `budget` share one counter (the partner API's per-credential quota); the authentication
 * step may set `req.rateLimitMax` to the credential's own limit.
 *
 * The check runs as the route's last `preHandler`, so it sees the key set by authentication hooks
 * (onRequest/preParsing/preValidation, app-level preHandler, or route preHandlers declared in the route
 * options). Requests refused before it (401 by authentication, 400 by schema validation) are not counted.
 *
 * Algorithm: fixed windows from @fastify/rate-limit's stores (in-memory LRU, or an atomic Redis Lua
 * INCR + PEXPIRE). A window starts at the first request of a key and lasts `windowSecs`; it then resets
 * in full. So a client can get up to 2×max through in a short span straddling a window boundary; for the
 * documented per-minute quotas that is acceptable, and no equally well-kept library offers sliding-window
 * or GCRA limits with both an in-memory and a Redis store.
 *
 * Every limited response (2xx too) carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset
 * (Unix seconds when the window ends, partner-api.md §8). Over the limit: 429 with the error body
 * `{error: 'rate limit exceeded, retry in N s', code: 'rate_limit_exceeded', retry_after_secs: N}` and
 * `Retry-After: N`. Routes without `rateLimit` are not limited and carry no such headers.
 *
 * Store: in-memory per process by default; with REDIS_URL, Redis (one client per app, i.e. per process,
 * closed when the app closes), so all REST processes share one counter per route and credential. Keys
 * read `<prefix>undefinedundefined-GET /api/psp/v1/merchants|psp:<key_id>` (the middle part is how the
 * plugin names limiters made with createRateLimit) and expire with their window.
 *
 * Redis unavailable → FAIL OPEN TO PER-PROCESS LIMITS (neither 503 nor unlimited). The limits protect
 * capacity and fairness; they are not a correctness or security boundary (authentication is), and
 * PostgreSQL, not Redis, is the system of record. Answering 503 while Redis is down would turn an outage
 * of optional infrastructure into an outage of bank payment-event and settlement intake (`POST
 * /psp/v1/events`, `/psp/v1/settlements`) and of every lookup, which costs merchants more than a
 * temporary overshoot of a quota. Letting everything through would drop the protection entirely. So each
 * process falls back to its in-memory counters: every route stays limited at its configured rate per
 * process (at worst N× the limit across N REST processes, never unlimited) and recovers to the shared
 * counters as soon as Redis answers. Requests never wait for a dead Redis: while the client is not
 * connected the local counters answer at once (no offline queue), a command that hangs times out after
 * REDIS_COMMAND_TIMEOUT_MS, and after a failed command Redis is skipped for REDIS_BACKOFF_MS.
 */

export interface RateLimit {
  /** Requests allowed per window and key (for a budget: unless the authentication step set `req.rateLimitMax`). */
  max: number;
  /** Window length in seconds. */
  windowSecs: number;
  /**
   * Routes naming the same budget share one counter per credential (partner-api.md §8: 60 requests per minute
   * per credential, whatever the endpoint); without it each route counts on its own.
   */
  budget?: string;
}

export interface RateLimitingOptions {
  /** Shared counters in Redis (REDIS_URL); absent, counters are in-memory per process. */
  redisUrl?: string;
  /** Prefix of every Redis key (tests use a unique one per run). */
  redisKeyPrefix?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the route's authentication step (`psp:<key_id>`, `partner:<credential_id>`); else the client IP is the key. */
    rateLimitKey?: string;
    /** A limit of the caller's own (a partner credential's configured rate), replacing `max` on routes with a budget. */
    rateLimitMax?: number;
  }
  interface FastifyContextConfig {
    /** Set through rateLimitRouteConfig(); a key of our own so that it never collides with the plugin's `rateLimit`. */
    restRateLimit?: RateLimit;
  }
}

const DEFAULT_KEY_PREFIX = 'qris:ratelimit:';
const REDIS_CONNECT_TIMEOUT_MS = 2000;
const REDIS_COMMAND_TIMEOUT_MS = 200;
const REDIS_BACKOFF_MS = 2000;
const ENFORCER = Symbol('restRateLimitEnforcer');

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type LimiterFactory = FastifyInstance['createRateLimit'];

/** What a route with a limit adds to its fastify route options; `{}` without a limit. */
export function rateLimitRouteConfig(limit?: RateLimit): { config?: { restRateLimit: RateLimit } } {
  if (!limit) return {};
  if (!Number.isInteger(limit.max) || limit.max < 1 || !Number.isInteger(limit.windowSecs) || limit.windowSecs < 1) {
    throw new Error(`rateLimit needs positive integers, got max=${limit.max} windowSecs=${limit.windowSecs}`);
  }
  return { config: { restRateLimit: { ...limit } } };
}

/**
 * Call once in the app factory, before any route is added: every route added afterwards whose config
 * carries a limit (rateLimitRouteConfig) is limited.
 */
export async function registerRateLimiting(app: FastifyInstance, options: RateLimitingOptions = {}): Promise<void> {
  const local = await limiterFactory(app, {});
  let shared: SharedStore | undefined;
  if (options.redisUrl) {
    const redis = await connectRedis(app, options.redisUrl);
    shared = new SharedStore(app, redis, await limiterFactory(app, { redis, nameSpace: options.redisKeyPrefix ?? DEFAULT_KEY_PREFIX }));
  }

  // One enforcer (and in-memory counter) per route id, so the HEAD route fastify derives from a GET
  // route shares the GET route's counter.
  const enforcers = new Map<string, preHandlerAsyncHookHandler>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const limit = route.config?.restRateLimit;
    if (!limit) return;
    const hooks = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? [...route.preHandler] : [route.preHandler];
    if (hooks.some((hook) => ENFORCER in hook)) return; // options copied from a route that has one already
    const counterId = limit.budget ? `budget:${limit.budget}` : `${routeMethods(route)} ${route.url}`;
    let enforcer = enforcers.get(counterId);
    if (!enforcer) {
      const limiterOptions = {
        max: limit.budget ? (req: FastifyRequest) => req.rateLimitMax ?? limit.max : limit.max,
        timeWindow: limit.windowSecs * 1000,
        keyGenerator: (req: FastifyRequest) => `${counterId}|${req.rateLimitKey ?? `ip:${normalizeIP(req.ip)}`}`,
      };
      enforcer = Object.assign(enforce(local(limiterOptions), shared?.limiter(limiterOptions), shared), { [ENFORCER]: true });
      enforcers.set(counterId, enforcer);
    }
    route.preHandler = [...hooks, enforcer] as RouteOptions['preHandler'];
  });
}

function enforce(localLimiter: Limiter, sharedLimiter: Limiter | undefined, shared: SharedStore | undefined): preHandlerAsyncHookHandler {
  return async function rateLimit(req: FastifyRequest, reply: FastifyReply) {
    let result: Awaited<ReturnType<Limiter>> | undefined;
    if (sharedLimiter && shared?.usable()) {
      try {
        result = await sharedLimiter(req);
      } catch (error) {
        shared.failed(error);
      }
    }
    result ??= await localLimiter(req);
    if (result.isAllowed) return; // no allow list is configured; kept for the type

    reply.header('x-ratelimit-limit', String(result.max));
    reply.header('x-ratelimit-remaining', String(result.remaining));
    reply.header('x-ratelimit-reset', String(Math.ceil((Date.now() + result.ttl) / 1000)));
    if (!result.isExceeded) return;

    const retryAfterSecs = Math.max(1, result.ttlInSeconds);
    const error = new HttpError(429, 'rate_limit_exceeded', `rate limit exceeded, retry in ${retryAfterSecs} s`, retryAfterSecs);
    reply.header('retry-after', String(retryAfterSecs));
    reply.code(429).type('application/json; charset=utf-8').send(JSON.stringify(error.toBody()));
    return reply;
  };
}

/**
 * The plugin, registered in an encapsulated child context: its decorator gives us limiters on its store,
 * while its own onRoute hook never sees the app's routes (we add our enforcer ourselves, to own the
 * headers, the body and the Redis fallback). Two registrations give two stores: local and Redis.
 */
async function limiterFactory(app: FastifyInstance, pluginOptions: { redis?: Redis; nameSpace?: string }): Promise<LimiterFactory> {
  let factory: LimiterFactory | undefined;
  const store = scopedPlugin('rate-limit-store', async (child) => {
    await child.register(fastifyRateLimit, { global: false, skipOnError: false, ...pluginOptions });
    factory = child.createRateLimit.bind(child);
  });
  await app.register(store);
  if (!factory) throw new Error('@fastify/rate-limit did not register');
  return factory;
}

async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    // Fail at once while disconnected (the local counters answer) instead of queueing behind a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // How long close waits for a socket to end; the 2 s default also holds after a refused connection.
    disconnectTimeout: 200,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return; // one line per outage, not one per reconnect attempt
    down = true;
    app.log.warn({ err: error }, 'rate limiting: Redis unreachable, limits are per process until it answers');
  });
  redis.on('ready', () => {
    if (down) app.log.info('rate limiting: Redis reachable again, limits are shared');
    down = false;
  });
  app.addHook('onClose', async () => {
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  });
  try {
    await redis.connect();
  } catch {
    // Logged by the error listener; ioredis keeps reconnecting in the background.
  }
  return redis;
}

/** The Redis-backed limiters and whether to use them now (connected and not in back-off after a failure). */
class SharedStore {
  private skipUntil = 0;

  constructor(
    private readonly app: FastifyInstance,
    private readonly redis: Redis,
    readonly limiter: LimiterFactory,
  ) {}

  usable(): boolean {
    return this.redis.status === 'ready' && Date.now() >= this.skipUntil;
  }

  failed(error: unknown): void {
    if (Date.now() >= this.skipUntil) {
      this.app.log.warn({ err: error }, 'rate limiting: Redis command failed, per-process limits for a while');
    }
    this.skipUntil = Date.now() + REDIS_BACKOFF_MS;
  }
}

function routeMethods(route: RouteOptions): string {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return [...new Set(methods.map((m) => (m.toUpperCase() === 'HEAD' ? 'GET' : m.toUpperCase())))].sort().join(',');
}
