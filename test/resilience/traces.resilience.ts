import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'undici';
import { demoBankEventRequest } from '../support/bank-events';
import { ProcessStack, ProcessTestDatabase, sleep } from './processes';

/**
 * One trace across the processes: the built stack (dist/) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local
 * OTLP/HTTP JSON receiver (the collector's part), one REST call carrying a caller's W3C traceparent. Every hop's
 * spans carry the caller's trace id, each service's spans hang under the caller's span, and the REST process's log
 * lines carry the trace id. Without OTEL_* variables no process exports anything.
 */
interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  requests = 0;
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      this.requests += 1;
      if (req.url === '/v1/traces' && String(req.headers['content-type']).startsWith('application/json')) {
        const payload = JSON.parse(body) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string }[] }[];
          }[];
        };
        for (const rs of payload.resourceSpans) {
          const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
          for (const scope of rs.scopeSpans) for (const span of scope.spans) this.spans.push({ service, ...span });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function postEvent(origin: string, headers: Record<string, string> = {}) {
  const id = `trace-${randomUUID()}`;
  const event = demoBankEventRequest({ external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: 25_000 });
  const res = await request(`${origin}/psp/v1/events`, { method: 'POST', body: event.payload, headers: { ...event.headers, ...headers } });
  return { status: res.statusCode, body: await res.body.text() };
}

/**
 * Both ways REST reaches the subgraphs: over HTTP (their processes, `REST_SUBGRAPHS=http`) the trace crosses a
 * process boundary at every hop; in process (the default, docs/decisions/0009-how-operations-execute.md) the subgraph's
 * operation and its SQL are spans of the REST process, in the same tree.
 */
describe.each([
  // Over HTTP the merchant subgraph takes part too when REST looks up the bank's key (its cache is cold).
  { subgraphs: 'http', services: ['rest', 'transaction'], allServices: expect.arrayContaining(['rest', 'transaction']) as unknown },
  { subgraphs: 'in-process', services: ['rest'], allServices: ['rest'] as unknown },
])('traces across processes (REST_SUBGRAPHS=$subgraphs)', ({ subgraphs, services: expectedServices, allServices }) => {
  let db: ProcessTestDatabase;
  let receiver: OtlpReceiver;
  let stack: ProcessStack;

  beforeAll(async () => {
    db = await ProcessTestDatabase.create(`qris_traces_${subgraphs.replace('-', '_')}`);
    receiver = new OtlpReceiver();
    const endpoint = await receiver.start();
    stack = await ProcessStack.start(db.adminUrl, {
      env: {
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        REST_SUBGRAPHS: subgraphs,
      },
    });
  }, 170_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await db?.drop();
  });

  it('carries the caller’s trace id through REST (its gateway in process), the subgraphs and PostgreSQL, and into the logs', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const answer = await postEvent(stack.restOrigin, { traceparent: `00-${traceId}-${callerSpan}-01` });
    expect(answer).toMatchObject({ status: 200, body: expect.stringContaining('success') });

    // Each process exports its own batches, a parent often in a later one than its children (it ends last): wait
    // until every span's parent has arrived too (at most 15 s).
    const orphans = (found: ReceivedSpan[]) => {
      const ids = new Set([callerSpan, ...found.map((s) => s.spanId)]);
      return found.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
    };
    const complete = (found: ReceivedSpan[]) => {
      const names = new Set(found.map((s) => s.service));
      return expectedServices.every((n) => names.has(n)) && found.some((s) => s.name.startsWith('pg')) && orphans(found).length === 0;
    };
    let spans: ReceivedSpan[] = [];
    for (let i = 0; i < 150 && !complete(spans); i += 1) {
      await sleep(100);
      spans = receiver.spans.filter((s) => s.traceId === traceId);
    }
    const services = new Set(spans.map((s) => s.service));
    if (!complete(spans))
      process.stderr.write(`spans of this trace: ${JSON.stringify(spans.map((s) => [s.service, s.name]))}\n${stack.report()}\n`);
    // REST runs the gateway's query plan in process: the event is resolved and recorded in
    // the transaction subgraph (docs/decisions/0028-payment-event-and-settlement-intake.md), fetched straight from the REST process.
    expect([...services].sort()).toEqual(allServices);
    expect(spans.map((s) => s.name)).toContainEqual(expect.stringContaining('__transaction__'));
    expect(spans.map((s) => s.service)).not.toContain('gateway');
    // One tree: the REST server span is the caller's child, and every other span's parent is a span of this trace.
    expect(spans.filter((s) => s.parentSpanId === callerSpan).map((s) => s.service)).toEqual(['rest']);
    expect(orphans(spans)).toEqual([]);
    // SQL of the subgraphs is in the trace.
    expect(spans.filter((s) => s.name.startsWith('pg')).length).toBeGreaterThan(0);
    // The REST process's request log lines carry the trace id.
    expect(stack.copies.rest[0].output).toContainEqual(expect.stringContaining(`"trace_id":"${traceId}"`));
  });

  it('carries the trace into an operations thread: a core API call’s subgraph spans and SQL join the caller’s trace', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const res = await request(`${stack.restOrigin}/references/cities?province_id=32`, {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    let spans: ReceivedSpan[] = [];
    const ids = () => new Set([callerSpan, ...spans.map((s) => s.spanId)]);
    const settled = () => spans.some((s) => s.name.startsWith('pg')) && spans.every((s) => s.parentSpanId && ids().has(s.parentSpanId));
    for (let i = 0; i < 150 && !settled(); i += 1) {
      await sleep(100);
      spans = receiver.spans.filter((s) => s.traceId === traceId);
    }
    // The operation ran on the thread (docs/decisions/0009-how-operations-execute.md), in the same tree as the request.
    expect(spans.filter((s) => s.parentSpanId === callerSpan).map((s) => s.service)).toEqual(['rest']);
    expect(spans.filter((s) => s.name.startsWith('pg')).length).toBeGreaterThan(0);
    expect(spans.filter((s) => !s.parentSpanId || !ids().has(s.parentSpanId))).toEqual([]);
  });

  it('starts a trace of its own when the caller sends none', async () => {
    const before = new Set(receiver.spans.map((s) => s.traceId));
    expect((await postEvent(stack.restOrigin)).status).toBe(200);
    let fresh: ReceivedSpan[] = [];
    for (let i = 0; i < 100 && new Set(fresh.map((s) => s.service)).size < expectedServices.length; i += 1) {
      await sleep(100);
      fresh = receiver.spans.filter((s) => !before.has(s.traceId) && s.service === 'rest');
      const traces = new Set(fresh.map((s) => s.traceId));
      fresh = receiver.spans.filter((s) => traces.has(s.traceId));
    }
    expect(new Set(fresh.map((s) => s.service))).toEqual(new Set(expectedServices));
  });
});
