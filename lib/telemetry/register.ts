import { serviceNameOf, startTracing } from './tracing';

/**
 * Imported first by every process entry (its instrumentation patches modules loaded after it): starts tracing
 * when the OTEL_* variables ask for it, named after the entry (gateway, rest, merchant …) unless OTEL_SERVICE_NAME.
 */
startTracing(serviceNameOf(require.main?.filename ?? process.argv[1] ?? 'node'), process.env);
