import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config';

/**
 * Server timeouts shared by every HTTP process, so that a slow or stalled client cannot hold a connection (and
 * its memory) indefinitely: the whole request within `requestTimeoutMs`, no idle socket beyond
 * `connectionTimeoutMs`, idle keep-alive connections closed after `keepAliveTimeoutMs`. Node checks the request
 * timeout only every `connectionsCheckingInterval` (30 s by default), which would let a dribbling client stay
 * that much longer; the interval is therefore bounded by the timeout.
 */
export function serverTimeoutOptions(config: Config): Pick<FastifyServerOptions, 'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout'> & {
  http: { connectionsCheckingInterval: number };
} {
  const { requestTimeoutMs, connectionTimeoutMs, keepAliveTimeoutMs } = config.http;
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: connectionTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    http: { connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4))) },
  };
}
