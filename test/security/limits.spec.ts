import http from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { issueServiceToken } from '@lib/auth/service-token';
import { loadConfig } from '@lib/config/config';
import { GATEWAY_BODY_LIMIT, REST_BODY_LIMIT } from '@lib/http/request-limits';
import type { HttpError } from '@lib/rest/error-body';
import { GatewayClient } from '@lib/rest/gateway-client';
import { createRestApp } from '@lib/rest/rest-app';
import { REST_ADAPTERS } from '@rest-adapters';
import { restOperations } from '@rest-adapters/gateway';
import { CoreHealthDocument } from '@rest-adapters/generated/operations';
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
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  it.each(ALL_ROUTES.filter((r) => r.schema.body).map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s: a body over its limit → 413 payload_too_large',
    async (_n, route) => {
      const credentials = await demoCredentials(stack);
      const body = JSON.stringify({ filler: 'x'.repeat((route.bodyLimit ?? REST_BODY_LIMIT) + 1024 * 1024) });
      const res = await stack.rest.inject(authedRequest(route, credentials, { body }));
      expect([res.statusCode, res.json()]).toEqual([413, { error: 'request body too large', code: 'payload_too_large' }]);
    },
  );

  describe('server timeouts', () => {
    it('the REST app applies HTTP_REQUEST_TIMEOUT_MS', async () => {
      const app = await stack.startRestApp(
        loadConfig({
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: stack.database.adminUrl,
          HTTP_REQUEST_TIMEOUT_MS: '1000',
        }),
      );
      try {
        await app.ready();
        expect(app.server.requestTimeout).toBe(1000);
      } finally {
        await app.close();
      }
    });

    it('closes the connection of a client that dribbles its body past HTTP_REQUEST_TIMEOUT_MS', async () => {
      const app = await stack.startRestApp(
        loadConfig({
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: stack.database.adminUrl,
          HTTP_REQUEST_TIMEOUT_MS: '1000',
        }),
      );
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

  describe('body limits and errors of the hops behind the REST adapters', () => {
    const gql = async (headers: Record<string, string>, body: string) => {
      const res = await request(stack.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        headersTimeout: 30_000,
      });
      return { status: res.statusCode, body: (await res.body.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] } };
    };

    it('the gateway takes a large body from the adapters’ service principal only, and answers an oversized one as GraphQL', async () => {
      const filler = (bytes: number) => JSON.stringify({ query: '{ __typename }', variables: { filler: 'x'.repeat(bytes) } });
      const anonymous = await gql({}, filler(GATEWAY_BODY_LIMIT + 1024));
      expect(anonymous.status).toBe(413);
      expect(anonymous.body.errors?.[0].extensions?.code).toBe('PAYLOAD_TOO_LARGE');
      const service = `Bearer ${await issueServiceToken('rest-adapters', stack.config.secrets.serviceTokenSecret)}`;
      const large = await gql({ authorization: service }, filler(4 * 1024 * 1024));
      expect(large).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
      // A forged token does not buy the larger limit.
      const forged = await gql({ authorization: 'Bearer not-a-token' }, filler(GATEWAY_BODY_LIMIT + 1024));
      expect(forged.status).toBe(413);
    });

    describe('a downstream 4xx is answered as a documented 4xx, never 500', () => {
      let fake: http.Server;
      let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };
      let fakeUrl: string;
      const apps: FastifyInstance[] = [];
      beforeAll(async () => {
        fake = http.createServer((req, res) => {
          req.resume();
          req.on('end', () => res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body));
        });
        await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
        fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/graphql`;
      });
      afterAll(async () => {
        for (const app of apps) await app.close();
        await new Promise((r) => fake.close(r));
      });
      /** A REST app whose catalog fetches go to the fake subgraph over HTTP. */
      const restOverFakeCatalog = async () => {
        const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: stack.database.adminUrl });
        const app = await createRestApp({
          config,
          adapters: REST_ADAPTERS,
          operations: restOperations(config, {
            subgraphs: { transport: 'http', urls: { ...stack.subgraphUrls(), catalog: fakeUrl } },
            warmUp: false,
          }),
        });
        apps.push(app);
        return { app, config };
      };
      const posCall = (app: FastifyInstance, internalKey: string, method: 'GET' | 'POST', url: string, payload?: object) =>
        app.inject({
          method,
          url,
          headers: { 'x-internal-api-key': internalKey, 'x-merchant-id': '00000000-0000-4000-8000-000000000001' },
          ...(payload ? { payload } : {}),
        });
      const push = {
        items: [
          {
            outbox_id: '00000000-0000-4000-8000-0000000000aa',
            entity_type: 'customer',
            entity_id: '00000000-0000-4000-8000-0000000000ab',
            op: 'upsert',
            payload: { name: 'x' },
          },
        ],
      };

      it.each([
        [
          'the gateway’s own 413 (framework body)',
          {
            status: 413,
            type: 'application/json',
            body: '{"statusCode":413,"code":"FST_ERR_CTP_BODY_TOO_LARGE","error":"Payload Too Large","message":"Request body is too large"}',
          },
          413,
          'payload_too_large',
        ],
        [
          'a 413 page of a proxy',
          { status: 413, type: 'text/html', body: '<html>413 Request Entity Too Large</html>' },
          413,
          'payload_too_large',
        ],
        [
          'a 400 with a GraphQL error of an unknown code',
          {
            status: 400,
            type: 'application/json',
            body: JSON.stringify({ errors: [{ message: 'Variable "$items" is invalid', extensions: { code: 'BAD_REQUEST' } }] }),
          },
          400,
          'bad_request',
        ],
        ['a 400 without a GraphQL body', { status: 400, type: 'text/plain', body: 'bad request' }, 400, 'bad_request'],
      ])('operator CLI → gateway process: %s', async (_what, gatewayAnswer, status, code) => {
        answer = gatewayAnswer;
        const client = new GatewayClient(fakeUrl, 'ops', stack.config.secrets.serviceTokenSecret, 5_000);
        try {
          const error = (await client.execute(CoreHealthDocument, {}, { requestId: 'r-1' }).catch((e: unknown) => e)) as HttpError;
          expect([error.status, error.code]).toEqual([status, code]);
        } finally {
          await client.close();
        }
      });

      it('REST → subgraph over HTTP: a subgraph’s 413 is 413 payload_too_large, its 400 BAD_USER_INPUT a 400 with its message', async () => {
        const { app, config } = await restOverFakeCatalog();
        answer = {
          status: 413,
          type: 'application/json',
          body: '{"statusCode":413,"error":"Payload Too Large","message":"Request body is too large"}',
        };
        const tooLarge = await posCall(app, config.secrets.internalApiKey, 'POST', '/poslite/sync/push', push);
        expect([tooLarge.statusCode, tooLarge.json()]).toEqual([413, { error: 'request body too large', code: 'payload_too_large' }]);
        answer = {
          status: 400,
          type: 'application/json',
          body: JSON.stringify({
            errors: [{ message: 'Variable "$limit" got invalid value 9999999999', extensions: { code: 'BAD_USER_INPUT' } }],
          }),
        };
        const invalid = await posCall(app, config.secrets.internalApiKey, 'GET', '/poslite/sync/pull?entity=products');
        expect([invalid.statusCode, invalid.json()]).toEqual([
          400,
          { error: 'Variable "$limit" got invalid value 9999999999', code: 'bad_request' },
        ]);
        // Anything else a subgraph answers stays an internal error, without its body.
        answer = { status: 401, type: 'application/json', body: '{"errors":[{"message":"secret detail"}]}' };
        const other = await posCall(app, config.secrets.internalApiKey, 'GET', '/poslite/sync/pull?entity=products');
        expect(other.statusCode).toBe(500);
        expect(other.body).not.toContain('secret detail');
      });
    });
  });
});
