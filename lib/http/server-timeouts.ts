import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config';

/**
 * Server timeouts shared by every HTTP process, so that a slow or stalled client cannot hold a connection (and
 * its memory) indefinitely: the whole request within `requestTimeoutMs`, no idle socket beyond
 * `connectionTimeoutMs`, idle keep-alive connections closed after `keepAliveTimeoutMs`. Node checks the request
 * timeout only every `connectionsCheckingInterval` (30 s by default), which would let a dribbling client stay
 * that much longer; the interval is therefore bounded by the timeout.
 */
export function serverTimeoutOptions(config: Config): Pick<
  FastifyServerOptions,
  'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout'
> & {
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

/**
 * Node's `requestTimeout` stops covering a request once its headers are in, so a client that dribbles its body
 * (a byte every few hundred milliseconds) would hold the connection as long as it likes. This hook gives every
 * request `requestTimeoutMs` from its start to have its whole body received; after that the socket is closed.
 */
export function enforceBodyDeadline(app: FastifyInstance, config: Config): void {
  const deadlineMs = config.http.requestTimeoutMs;
  app.addHook('onRequest', (req, _reply, done) => {
    const raw = req.raw;
    const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
    if (!hasBody || raw.complete) return done();
    const timer = setTimeout(() => {
      if (raw.complete) return;
      req.log.warn({ deadline_ms: deadlineMs }, 'request body not received in time: connection closed');
      raw.destroy();
    }, deadlineMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    done();
  });
}
