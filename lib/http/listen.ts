import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config';
import { stopTracing } from '../telemetry/tracing';
import { collectProcessMetrics, serveMetrics } from './metrics';

/**
 * Listens on the public port and serves /metrics, the process's own metrics included, on the internal one
 * (METRICS_PORT, unless 0); stops gracefully on a signal, then exits 0 (1 when closing failed). The entry of every
 * long-running process calls it once.
 *
 * SIGTERM (an orchestrator's stop, a rolling deploy) drains (docs/decisions/0203-compose-and-image-proof.md):
 * 1. /readyz answers 503 at once and every answer carries `Connection: close` (lib/http/probes.ts);
 * 2. the process goes on serving for DRAIN_DELAY_MS, while load balancers take it out of rotation;
 * 3. it stops accepting and closes (fastify's close): in-flight requests finish (one arriving on a kept-alive connection
 *    meanwhile gets the server's 503 with Retry-After), live event streams get a `retry:` hint and end, job workers
 *    take no new job and let the running ones finish (or give them back to the queue), the last spans are exported.
 * SIGINT (Ctrl-C in a terminal) skips the delay. A second signal while draining changes nothing.
 */
export async function listenUntilSignal(app: FastifyInstance, config: Config, port: number): Promise<string> {
  collectProcessMetrics(app.metricsRegistry);
  const address = await app.listen({ host: config.host, port });
  const metrics = config.ports.metrics === 0 ? undefined : await serveMetrics(app.metricsRegistry, config.host, config.ports.metrics);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const delayMs = signal === 'SIGTERM' ? config.http.drainDelayMs : 0;
    app.lifecycle.startDraining();
    app.log.info({ signal, drain_delay_ms: delayMs }, 'draining: not ready, then closing');
    setTimeout(() => {
      metrics?.close();
      app
        .close()
        .then(stopTracing)
        .then(
          () => process.exit(0),
          (error: unknown) => {
            app.log.error({ err: error }, 'closing failed');
            process.exit(1);
          },
        );
    }, delayMs);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return address;
}
