import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayClient } from './gateway-client';
import { HttpError } from './error-body';

const TIMEOUT_MS = 1000;

describe('GatewayClient timeouts', () => {
  it('answers 503 within the timeout also when a burst waits in the connection queue of a gateway that hangs', async () => {
    const hanging = new Set<http.ServerResponse>();
    const server = http.createServer((_req, res) => void hanging.add(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new GatewayClient(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
      'test',
      'test-service-token-secret-0000',
      TIMEOUT_MS,
    );
    try {
      // More calls than the pool's 64 connections: the rest queue, and the queue wait counts against the timeout.
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 80 }, () =>
          client.execute({ name: 'Q', document: 'query Q { __typename }' }, {}, { requestId: 'r' }).then(
            () => null,
            (error: unknown) => ({ status: (error as HttpError).status, ms: Date.now() - started }),
          ),
        ),
      );
      expect(outcomes.filter((o) => o?.status !== 503)).toEqual([]);
      // Without an overall deadline the 16 queued calls would start their timeout only once a connection freed, one
      // timeout after the first 64 failed. With it, all 80 fail together: their spread stays well under one timeout
      // (a relative bound, so a loaded machine's slower event loop moves both ends).
      const times = outcomes.map((o) => o!.ms);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(Math.max(...times) - Math.min(...times)).toBeLessThan(0.7 * TIMEOUT_MS);
    } finally {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await client.close().catch(() => undefined);
      await new Promise((r) => server.close(r));
    }
  });
});
