import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one process: request counts and latency histograms per route (the route
 * pattern, never the raw URL, so cardinality stays bounded) and the process metrics of prom-client.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus registry, for metrics of its own (served at /metrics). */
    metricsRegistry: Registry;
  }
}

export const metricsPlugin = fp(async function metrics(app: FastifyInstance, opts: { service: string }) {
  const registry = new Registry();
  app.decorate('metricsRegistry', registry);
  registry.setDefaultLabels({ service: opts.service });
  collectDefaultMetrics({ register: registry });
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

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
});
