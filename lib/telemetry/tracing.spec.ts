import { serviceNameOf, startTracing, tracingRequested, tracingStarted } from './tracing';

describe('tracing switch', () => {
  it('is on only when an OTLP endpoint or a trace exporter is named, and OTEL_SDK_DISABLED does not say otherwise', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });

  it('starts nothing when not requested', () => {
    expect(startTracing('rest', {})).toBe(false);
    expect(tracingStarted()).toBe(false);
  });

  it('names each process after its entry', () => {
    expect(serviceNameOf('/app/dist/gateway/src/main.js')).toBe('gateway');
    expect(serviceNameOf('/app/dist/rest-adapters/main.js')).toBe('rest');
    expect(serviceNameOf('/app/dist/subgraphs/transaction/src/main.js')).toBe('transaction');
    expect(serviceNameOf('/app/dist/scripts/ops.js')).toBe('ops');
  });
});
