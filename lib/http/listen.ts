import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config';
import { stopTracing } from '../telemetry/tracing';
import { collectProcessMetrics, serveMetrics } from './metrics';

/**
 * Listens on the public port and serves /metrics, the process's own metrics included, on the internal one
 * (METRICS_PORT, unless 0); on SIGINT or SIGTERM closes gracefully (in-flight requests finish, the last spans are
 * exported), then exits. The entry of every long-running process calls it once.
 */
export async function listenUntilSignal(app: FastifyInstance, config: Config, port: number): Promise<string> {
  collectProcessMetrics(app.metricsRegistry);
  const address = await app.listen({ host: config.host, port });
  const metrics = config.ports.metrics === 0 ? undefined : await serveMetrics(app.metricsRegistry, config.host, config.ports.metrics);
  const stop = () => {
    metrics?.close();
    app
      .close()
      .then(stopTracing)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return address;
}
