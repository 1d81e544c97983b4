import path from 'node:path';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * OpenTelemetry tracing of one process (docs/decisions/0012-observability.md): the Node SDK with
 * HTTP, undici, fastify, pg and GraphQL instrumentation, W3C trace context in and out, spans exported over OTLP as
 * the standard OTEL_* variables say (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL = http/protobuf,
 * http/json or grpc, OTEL_TRACES_SAMPLER, OTEL_RESOURCE_ATTRIBUTES …).
 *
 * Off, and free, unless an OTLP endpoint or a trace exporter is named: then nothing of the SDK is even loaded.
 * Metrics stay with prom-client (/metrics on the internal port) and logs with pino, so the SDK's metric and log
 * exporters are off unless OTEL_METRICS_EXPORTER / OTEL_LOGS_EXPORTER say otherwise.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** The service name of a process entry (dist/gateway/src/main.js → gateway, dist/rest-adapters/main.js → rest). */
export function serviceNameOf(entry: string): string {
  const parts = path.normalize(entry).split(path.sep);
  const subgraph = parts.indexOf('subgraphs');
  if (subgraph >= 0 && parts[subgraph + 1]) return parts[subgraph + 1];
  if (parts.includes('gateway')) return 'gateway';
  if (parts.includes('rest-adapters')) return 'rest';
  return path.basename(entry, path.extname(entry));
}

let shutdown: (() => Promise<void>) | undefined;

/**
 * Starts the SDK when tracing is requested. Must run before the modules it instruments are loaded: process entries
 * import `@lib/telemetry/register` first. Returns whether tracing is on.
 */
export function startTracing(service: string, env: NodeJS.ProcessEnv): boolean {
  if (shutdown || !tracingRequested(env)) return Boolean(shutdown);
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on (free when off) */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { GraphQLInstrumentation } =
    require('@opentelemetry/instrumentation-graphql') as typeof import('@opentelemetry/instrumentation-graphql');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const probes = (url: string | undefined) => url === '/health' || url === '/livez' || url === '/readyz' || url === '/metrics';
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? service,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => probes(req.url) }),
      new UndiciInstrumentation(),
      new FastifyOtelInstrumentation({ registerOnInitialization: true, ignorePaths: (opts) => probes(opts.url) }),
      // Statements and their pool waits; a span per connect would only repeat the pool's metrics.
      new PgInstrumentation({ requireParentSpan: true }),
      // Parse, validate and execute per operation; a span per resolver would cost more than the operation itself.
      new GraphQLInstrumentation({ ignoreResolveSpans: true, mergeItems: true }),
    ],
  });
  sdk.start();
  shutdown = () => sdk.shutdown();
  return true;
}

/** Flushes and stops the SDK (on a graceful stop, so the last spans are exported); an unreachable collector is no failure. */
export async function stopTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.().catch((error: unknown) => process.stderr.write(`tracing: spans not flushed at stop: ${String(error)}\n`));
}

/** trace_id and span_id of the active span, for log lines; empty when tracing is off or no span is active. */
export function activeTraceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active())?.spanContext();
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/** Whether this process exports traces (the logger then adds trace ids to its lines). */
export function tracingStarted(): boolean {
  return shutdown !== undefined;
}
