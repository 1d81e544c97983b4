import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createGatewayApp } from '@gateway/src/app';
import { demoBankEventRequest } from '../support/bank-events';
import { ALL_ROUTES, pathOf } from '../support/route-requests';
import { type TestStack, startTestStack } from '../support/test-stack';

/** One HTTP/1.1 exchange written on a raw socket (Node's parser, not fastify's inject): the whole answer as text. */
function rawExchange(port: number, ...chunks: { text: string; afterMs?: number; then?: () => void }[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer: ${answer}`)));
    let delay = 0;
    for (const chunk of chunks) {
      delay += chunk.afterMs ?? 0;
      setTimeout(() => {
        chunk.then?.();
        socket.write(chunk.text);
      }, delay);
    }
  });
}

/** The status, headers and JSON body of each answer in `raw` (several when pipelined). */
function answersOf(raw: string): { status: number; headers: Record<string, string>; body: any }[] {
  const answers = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1')) {
    const [head, after] = [rest.slice(0, rest.indexOf('\r\n\r\n')), rest.slice(rest.indexOf('\r\n\r\n') + 4)];
    const [statusLine, ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(after.slice(0, length)) });
    rest = after.slice(length);
  }
  return answers;
}

/**
 * Answers the framework gives itself carry the documented error body `{error, code, retry_after_secs?}`
 * (decision 0006): 431, a malformed request, 404, 405, 413, bad JSON, 415 for a body that is not JSON (before any
 * signature check), and 503 while REST drains on shutdown.
 */
describe('REST: framework answers use the documented error body', () => {
  let stack: TestStack;
  let rest: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    stack = await startTestStack();
    rest = await stack.startRestApp(stack.config);
    await rest.listen({ host: '127.0.0.1', port: 0 });
    port = (rest.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await rest?.close();
    await stack?.close();
  });

  it('431 for headers over the limit, 400 for a malformed request', async () => {
    const [large] = answersOf(
      await rawExchange(port, { text: `GET /references/provinces HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n` }),
    );
    expect(large).toMatchObject({ status: 431, body: { error: 'request headers too large', code: 'request_header_fields_too_large' } });
    const [malformed] = answersOf(await rawExchange(port, { text: 'NOT HTTP\r\n\r\n' }));
    expect(malformed).toMatchObject({ status: 400, body: { code: 'bad_request' } });
  });

  it.each([
    ['unknown path', { method: 'GET', url: '/nothing-here' }, 404, 'not_found'],
    ['wrong method', { method: 'DELETE', url: '/references/provinces' }, 405, 'method_not_allowed'],
    [
      'bad JSON',
      { method: 'POST', url: '/psp/v1/events', payload: '{"a":', headers: { 'content-type': 'application/json' } },
      400,
      'bad_request',
    ],
    [
      'body over the limit',
      {
        method: 'POST',
        url: '/psp/v1/events',
        payload: `"${'a'.repeat(2 * 1024 * 1024)}"`,
        headers: { 'content-type': 'application/json' },
      },
      413,
      'payload_too_large',
    ],
  ] as const)('%s', async (_label, request, status, code) => {
    const answer = await rest.inject(request as never);
    expect(answer.statusCode).toBe(status);
    expect(answer.json()).toEqual({ error: expect.any(String), code });
  });

  it('a correctly signed bank event as text/plain, or without a content type, is 415 naming application/json', async () => {
    const { payload, headers } = demoBankEventRequest({ transaction_id: 'TX-415' });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const answer = await rest.inject({
        method: 'POST',
        url: '/psp/v1/events',
        payload,
        headers: { ...headers, 'content-type': contentType },
      });
      expect(answer.statusCode).toBe(415);
      expect(answer.json()).toEqual({ error: expect.stringContaining('application/json'), code: 'unsupported_media_type' });
    }
  });

  it('every route with a body answers 415 to a body that is not JSON', async () => {
    const bodyRoutes = ALL_ROUTES.filter((route) => route.schema.body !== undefined);
    expect(bodyRoutes.length).toBeGreaterThan(10);
    for (const route of bodyRoutes) {
      const answer = await rest.inject({
        method: route.method,
        url: pathOf(route),
        payload: '{}',
        headers: { 'content-type': 'text/plain' },
      });
      expect([route.url, answer.statusCode, answer.json()]).toEqual([
        route.url,
        415,
        { error: expect.stringContaining('application/json'), code: 'unsupported_media_type' },
      ]);
    }
  });

  // A route, and a probe: registered before the app's error handler, its 503 must be the documented body too.
  it.each(['/references/provinces', '/readyz'])(
    'while draining on close, a request on an open connection is 503 with code, retry_after_secs and Retry-After (%s)',
    async (path) => {
      const app = await stack.startRestApp(stack.config);
      await app.listen({ host: '127.0.0.1', port: 0 });
      // The first request's body is still arriving when close starts; the second, pipelined behind it, arrives during the drain.
      let closed: Promise<void> | undefined;
      const { payload, headers } = demoBankEventRequest({ transaction_id: 'TX-DRAIN' });
      const head = `POST /psp/v1/events HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n')}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n`;
      const raw = await rawExchange(
        (app.server.address() as AddressInfo).port,
        { text: head + payload.slice(0, 10) },
        {
          text: `${payload.slice(10)}GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`,
          afterMs: 300,
          then: () => {
            closed = app.close();
          },
        },
      );
      await closed;
      const answers = answersOf(raw);
      expect(answers).toHaveLength(2);
      const draining = answers.at(-1)!;
      expect(draining.status).toBe(503);
      expect(draining.headers['retry-after']).toBe('5');
      expect(draining.body).toEqual({ error: expect.any(String), code: 'service_unavailable', retry_after_secs: 5 });
    },
  );
});

/** The gateway's framework answers are GraphQL errors like its others: 431, a malformed request, 503 while draining. */
describe('Gateway: framework answers are GraphQL errors', () => {
  let stack: TestStack;
  let gateway: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    stack = await startTestStack();
    const subgraphUrls = stack.subgraphUrls();
    gateway = await createGatewayApp({
      config: stack.config,
      subgraphs: { transport: 'http', urls: subgraphUrls },
      warmUp: false,
      logStream: { write: () => undefined },
    });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    port = (gateway.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await gateway?.close();
    await stack?.close();
  });

  it('431 for headers over the limit, 400 for a malformed request', async () => {
    const [large] = answersOf(await rawExchange(port, { text: `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n` }));
    expect(large).toMatchObject({
      status: 431,
      body: { errors: [{ message: 'request headers too large', extensions: { code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' } }] },
    });
    const [malformed] = answersOf(await rawExchange(port, { text: 'NOT HTTP\r\n\r\n' }));
    expect(malformed).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'BAD_REQUEST' } }] } });
  });

  it('while draining on close, a request on an open connection is 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    let closed: Promise<void> | undefined;
    const payload = JSON.stringify({ query: '{ __typename }' });
    const head = `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`;
    const raw = await rawExchange(
      port,
      { text: head + payload.slice(0, 5) },
      {
        text: `${payload.slice(5)}GET /health HTTP/1.1\r\nHost: x\r\n\r\n`,
        afterMs: 300,
        then: () => {
          closed = gateway.close();
        },
      },
    );
    await closed;
    const draining = answersOf(raw).at(-1)!;
    expect(draining.status).toBe(503);
    expect(draining.headers['retry-after']).toBe('5');
    expect(draining.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
  });
});
