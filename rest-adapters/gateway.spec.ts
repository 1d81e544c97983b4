import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { PRINCIPAL_HEADER, type Principal, PrincipalVerifier } from '@lib/auth/principal';
import { SUBGRAPH_NAMES, loadConfig } from '@lib/config/config';
import { CALL_TIMEOUT_HEADER } from '@lib/http/request-limits';
import type { HttpError } from '@lib/rest/error-body';
import { GraphOperations } from '@lib/rest/operation-executor';
import { GraphExecutor } from '@gateway/src/executor';
import { CoreHealthDocument } from '@rest-adapters/generated/operations';

const TIMEOUT_MS = 400;
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', GATEWAY_TIMEOUT_MS: String(TIMEOUT_MS) });

/** One HTTP server standing in for every subgraph: `answer` decides what each fetch gets. */
async function fakeSubgraphs(answer: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  const executor = await GraphExecutor.start({
    config,
    subgraphs: { transport: 'http', urls: Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, url])) },
    registry: new Registry(),
    logger: Fastify({ logger: false }).log,
  });
  const gateway = new GraphOperations(executor, 'rest-test', config.gatewayTimeoutMs);
  return {
    gateway,
    close: async () => {
      await gateway.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the REST process’s operations on the executor (GraphOperations over GraphExecutor)', () => {
  it('answers 503 service_unavailable within GATEWAY_TIMEOUT_MS when a subgraph hangs, long before the fetch timeout', async () => {
    const stack = await fakeSubgraphs(() => undefined);
    try {
      // The first call plans the operation in a cold process (over a second on a loaded machine); the second is timed.
      await stack.gateway.execute(CoreHealthDocument, {}, { requestId: 'r-0' }).catch(() => undefined);
      const started = Date.now();
      const error = (await stack.gateway.execute(CoreHealthDocument, {}, { requestId: 'r-1' }).catch((e: unknown) => e)) as HttpError;
      expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'service_unavailable' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    } finally {
      await stack.close();
    }
  });

  it('sends the acting principal, signed once and reused, and the request id to the subgraph; without one, the adapter itself', async () => {
    const seen: { principal: string; requestId: string }[] = [];
    const stack = await fakeSubgraphs((req, res) => {
      seen.push({ principal: String(req.headers[PRINCIPAL_HEADER]), requestId: String(req.headers['x-request-id']) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { referenceDataStatus: { loaded: true } } }));
    });
    try {
      const bank: Principal = { kind: 'bank', bankId: 'b-1', bankCode: 'BDEMO', tier: 1 };
      for (const requestId of ['r-1', 'r-2']) {
        expect(await stack.gateway.execute(CoreHealthDocument, {}, { requestId, acting: bank })).toEqual({
          referenceDataStatus: { loaded: true },
        });
      }
      await stack.gateway.execute(CoreHealthDocument, {}, { requestId: 'r-3' });
      const verifier = new PrincipalVerifier(config.secrets.principalSecret);
      expect(seen.map((s) => s.requestId)).toEqual(['r-1', 'r-2', 'r-3']);
      expect(await verifier.verify(seen[0].principal)).toEqual(bank);
      expect(seen[1].principal).toBe(seen[0].principal);
      expect(await verifier.verify(seen[2].principal)).toEqual({ kind: 'service', service: 'rest-test' });
    } finally {
      await stack.close();
    }
  });

  it("posts the operation as JSON with a route's longer deadline, and maps a subgraph's non-2xx answers without its body", async () => {
    const seen: { body: { query?: string; operationName?: string }; deadline?: string | string[]; contentType?: string }[] = [];
    let status = 200;
    const stack = await fakeSubgraphs((req, res, body) => {
      seen.push({
        body: JSON.parse(body) as { query?: string; operationName?: string },
        deadline: req.headers[CALL_TIMEOUT_HEADER],
        contentType: req.headers['content-type'],
      });
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            status === 200 ? { data: { referenceDataStatus: { loaded: true } } } : { errors: [{ message: 'subgraph detail' }] },
          ),
        );
    });
    try {
      expect(await stack.gateway.execute(CoreHealthDocument, {}, { requestId: 'r-1', timeoutMs: 5_000 })).toEqual({
        referenceDataStatus: { loaded: true },
      });
      expect(seen[0]).toMatchObject({ deadline: '5000', contentType: 'application/json' });
      expect(seen[0].body.query).toContain('referenceDataStatus');
      const outcomes: [number, number, string][] = [];
      for (const answer of [502, 500]) {
        status = answer;
        const error = (await stack.gateway
          .execute(CoreHealthDocument, {}, { requestId: `r-${answer}` })
          .catch((e: unknown) => e)) as HttpError;
        expect(error.message).not.toContain('subgraph detail');
        outcomes.push([answer, error.status, error.code]);
      }
      expect(outcomes).toEqual([
        [502, 503, 'service_unavailable'],
        [500, 500, 'internal_error'],
      ]);
    } finally {
      await stack.close();
    }
  });
});
