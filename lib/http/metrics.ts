import http from 'node:http';
import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  AggregatorRegistry,
  Counter,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';
import { cacheLookups } from './cache-metrics';

/**
 * Prometheus metrics of one app: request counts and latency histograms per route (the route pattern, never the raw
 * URL, so cardinality stays bounded). A process adds prom-client's process metrics to its app's registry
 * (`collectProcessMetrics`). They are served on an internal port of their own (`serveMetrics`, METRICS_PORT), where
 * the collector scrapes them; only the REST process also answers the core API's documented `GET /metrics` (decision
 * 0206).
 */
declare module 'fastify' {
  interface FastifyInstance {
    /**
     * This app's Prometheus registry, for metrics of its own; a process's entry adds the process's metrics to it
     * (served at /metrics on the internal port).
     */
    metricsRegistry: Registry;
  }
}

/** How often the event loop's delay is sampled for `nodejs_eventloop_lag_*` (10 samples a second per process). */
const EVENT_LOOP_SAMPLE_MS = 100;

export const metricsPlugin = fp(async function metrics(
  app: FastifyInstance,
  opts: {
    service: string;
    /** Also GET /metrics on the public port: only the REST process, where core-api.md §4 documents it. */
    documentedRoute?: boolean;
  },
) {
  const registry = new Registry();
  app.decorate('metricsRegistry', registry);
  registry.setDefaultLabels({ service: opts.service });
  registry.registerMetric(cacheLookups);
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status code',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and method',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.addHook('onResponse', async (req, reply) => {
    const labels = {
      method: req.method,
      route: req.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  if (opts.documentedRoute) {
    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    });
  }
});

/**
 * prom-client's process metrics (CPU, memory, event-loop delay, garbage collection, handles, Node's version) in a
 * registry: once per process, by its entry (`listenUntilSignal`), never per app. prom-client cannot stop them: its
 * garbage-collection observer stays subscribed to the process's performance timeline, and its event-loop histogram
 * keeps sampling, for as long as the process lives (prometheus/client_js#500, #494). An app built and closed many times
 * in one process, as every test stack is in a Jest worker, would leave one of each behind per app, and with them the
 * whole module graph that built it (docs/decisions/0012-observability.md).
 */
export function collectProcessMetrics(registry: Registry): void {
  // The event-loop delay is sampled every 100 ms, not prom-client's 10: a 10 ms timer woke every idle process 100
  // times a second, about 5 ms of CPU per second each (docs/decisions/0012-observability.md).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}

/**
 * GET /metrics of a registry on an internal listener (METRICS_PORT on HOST), for the collector's scrape; anything
 * else is 404. Resolves once listening.
 */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"not found"}}');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/**
 * Adds the metrics another thread of the process keeps (its own labels set them apart) to every scrape of `registry`:
 * `render` (run by that thread, so that merging costs this thread nothing) gets this registry's series and answers the
 * exposition of both. A thread that does not answer leaves this registry's own.
 */
export function includeThreadMetrics(registry: Registry, render: (own: MetricsJson) => Promise<string>): void {
  const ownJson = registry.getMetricsAsJSON.bind(registry);
  const ownText = registry.metrics.bind(registry);
  registry.metrics = async () => {
    const own = await ownJson();
    return render(own).catch(() => ownText());
  };
}

/** The exposition of several registries' series, merged by metric name (their labels set them apart). */
export function mergedMetrics(parts: MetricsJson[]): Promise<string> {
  return AggregatorRegistry.aggregate(parts).metrics();
}
