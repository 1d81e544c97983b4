import { type AddressInfo, connect } from 'node:net';
import { request } from 'undici';
import { loadConfig } from '@lib/config/config';
import { createRestApp } from '@lib/rest/rest-app';
import { REST_ADAPTERS } from '@rest-adapters';
import { ALL_ROUTES, authedRequest, demoCredentials } from '../support/route-requests';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * Size and time limits: an oversized body is 413 with the error body before anything runs; a client that dribbles
 * its body is cut off after HTTP_REQUEST_TIMEOUT_MS (every HTTP process shares the setting); deep or wide
 * GraphQL documents sent to the gateway are refused or bounded without taking it down.
 */
describe('limits', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ LOG_LEVEL: 'warn' });
  });
  afterAll(() => stack?.close());

  it.each(ALL_ROUTES.filter((r) => r.schema.body).map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s: a 2 MB body → 413 payload_too_large',
    async (_n, route) => {
      const credentials = await demoCredentials(stack);
      const body = JSON.stringify({ filler: 'x'.repeat(2 * 1024 * 1024) });
      const res = await stack.rest.inject(authedRequest(route, credentials, { body }));
      expect([res.statusCode, res.json()]).toEqual([413, { error: 'request body too large', code: 'payload_too_large' }]);
    },
  );

  describe('server timeouts', () => {
    it('the REST app applies HTTP_REQUEST_TIMEOUT_MS', async () => {
      const app = await createRestApp({
        config: loadConfig({
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          GATEWAY_URL: stack.gatewayUrl,
          HTTP_REQUEST_TIMEOUT_MS: '1000',
        }),
        adapters: REST_ADAPTERS,
      });
      try {
        await app.ready();
        expect(app.server.requestTimeout).toBe(1000);
      } finally {
        await app.close();
      }
    });

    it('closes the connection of a client that dribbles its body past HTTP_REQUEST_TIMEOUT_MS', async () => {
      const app = await createRestApp({
        config: loadConfig({
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          GATEWAY_URL: stack.gatewayUrl,
          HTTP_REQUEST_TIMEOUT_MS: '1000',
        }),
        adapters: REST_ADAPTERS,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
      const started = Date.now();
      const drip = setInterval(() => socket.write(' '), 200);
      try {
        socket.write('POST /psp/v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
        const closedAfter = await new Promise<number>((resolve) => {
          socket.on('close', () => resolve(Date.now() - started));
          socket.on('error', () => undefined);
          setTimeout(() => resolve(Infinity), 10_000).unref();
        });
        expect(closedAfter).toBeGreaterThanOrEqual(900);
        expect(closedAfter).toBeLessThan(5_000);
      } finally {
        clearInterval(drip);
        socket.destroy();
        await app.close();
      }
    });

    it('the gateway and the subgraphs use the same server timeouts', () => {
      for (const server of [stack.gateway.server, stack.subgraphs.merchant.app.server]) {
        expect([server.requestTimeout, server.keepAliveTimeout]).toEqual([
          stack.config.http.requestTimeoutMs,
          stack.config.http.keepAliveTimeoutMs,
        ]);
      }
    });
  });

  describe('GraphQL documents at the gateway', () => {
    const post = (query: string) =>
      request(stack.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
        headersTimeout: 30_000,
      });

    it.each([
      ['10,000 nested selections', `{ ${'provinces { '.repeat(10_000)}id${' }'.repeat(10_000)} }`],
      ['50,000 nested braces', `{${'{'.repeat(50_000)}${'}'.repeat(50_000)}}`],
      ['a fragment cycle', 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }'],
      ['a 300 kB document', `{ ${'provinces { id } '.repeat(18_000)} }`],
    ])('%s: refused without a 5xx', async (_what, query) => {
      const res = await post(query);
      const text = await res.body.text();
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(text).not.toMatch(/at .+\.js:\d+|RangeError/);
    });

    it('2,000 aliases of a public list are answered within bounds and the gateway stays healthy', async () => {
      const started = Date.now();
      const res = await post(`{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: provinces { id }`).join(' ')} }`);
      const body = (await res.body.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] };
      expect(res.statusCode).toBeLessThan(500);
      expect(body.data !== undefined || body.errors !== undefined).toBe(true);
      expect(Date.now() - started).toBeLessThan(20_000);
      const health = await request(stack.gatewayUrl.replace('/graphql', '/health'));
      expect(health.statusCode).toBe(200);
      await health.body.dump();
    });
  });
});
