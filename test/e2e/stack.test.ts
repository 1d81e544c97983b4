import { request } from 'undici';
import { SignJWT } from 'jose';
import { PRINCIPAL_HEADER, encodeActingPrincipal, signPrincipal } from '@lib/auth/principal';
import { issueServiceToken } from '@lib/auth/service-token';
import { loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { APP_OPERATIONS_DIR, collectOperations } from '@lib/federation/compose';
import { createRestApp } from '@lib/rest/rest-app';
import { REST_ADAPTERS } from '@rest-adapters';
import { restOperations } from '@rest-adapters/gateway';
import { SUBGRAPHS } from '@subgraphs';
import { type TestStack, startTestStack } from '../support/test-stack';

async function postGraphQL(url: string, query: string, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return {
    status: res.statusCode,
    body: (await res.body.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] },
  };
}

const MERCHANT_ACROSS_FOUR_SUBGRAPHS = `{
  merchant(id: "${DEMO.merchantId}") {
    merchantCode name status
    outlets { code nmid isDefault merchant { id } }
    latestTransactions(last: 3) { transactionCode status grossAmount }
    posCategories { name sortOrder }
  }
}`;

describe('the federated stack', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({}, { warmUp: true });
  });
  afterAll(() => stack?.close());

  describe('gateway', () => {
    it('resolves one merchant across all four subgraphs for a service caller', async () => {
      const token = await issueServiceToken('test', stack.config.secrets.serviceTokenSecret);
      const { status, body } = await postGraphQL(stack.gatewayUrl, MERCHANT_ACROSS_FOUR_SUBGRAPHS, { authorization: `Bearer ${token}` });
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(body.data.merchant).toEqual({
        merchantCode: DEMO.merchantCode,
        name: 'Warung Kopi Demo',
        status: 'active',
        outlets: [
          { code: 'PUSAT', nmid: 'ID1026112200001', isDefault: true, merchant: { id: DEMO.merchantId } },
          { code: 'MENTENG', nmid: 'ID1026112200002', isDefault: false, merchant: { id: DEMO.merchantId } },
        ],
        latestTransactions: [
          { transactionCode: 'TRX-DEMO-0001', status: 'success', grossAmount: 15000 },
          { transactionCode: 'TRX-DEMO-0002', status: 'success', grossAmount: 22500 },
          { transactionCode: 'TRX-DEMO-0003', status: 'success', grossAmount: 30000 },
        ],
        posCategories: [
          { name: 'Kopi', sortOrder: 1 },
          { name: 'Minuman Dingin', sortOrder: 2 },
          { name: 'Makanan Ringan', sortOrder: 3 },
        ],
      });
    });

    it('warmed the query plans of every fixed REST operation and trusted app document at start', () => {
      const operations = collectOperations().length + collectOperations(APP_OPERATIONS_DIR).length;
      const warm = stack.logs.find((line) => line.service === 'gateway' && line.msg === 'query plans warmed');
      expect(warm).toMatchObject({ operations, planned: operations });
      expect(stack.logs.filter((line) => line.msg === 'operation not warmed')).toEqual([]);
    });

    it('lets anonymous callers read public reference data only', async () => {
      const provinces = await postGraphQL(stack.gatewayUrl, '{ provinces { id } }');
      expect(provinces.body.data.provinces).toHaveLength(38);
      const merchant = await postGraphQL(stack.gatewayUrl, MERCHANT_ACROSS_FOUR_SUBGRAPHS);
      expect(merchant.body.data?.merchant ?? null).toBeNull();
      expect(merchant.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('refuses an invalid token, a token signed with another secret, and an acting principal without a service token', async () => {
      const forged = await issueServiceToken('test', 'another-secret-of-enough-length');
      const cases: Record<string, string>[] = [
        { authorization: 'Bearer not-a-jwt' },
        { authorization: `Bearer ${forged}` },
        { authorization: 'Basic abc' },
        { 'x-acting-principal': encodeActingPrincipal({ kind: 'internal', service: 'x' }) },
      ];
      for (const headers of cases) {
        const { status, body } = await postGraphQL(stack.gatewayUrl, '{ provinces { id } }', headers);
        expect({ status, code: body.errors?.[0].extensions?.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      }
    });

    it('refuses a malformed acting principal asserted by a service', async () => {
      const token = await issueServiceToken('test', stack.config.secrets.serviceTokenSecret);
      const bogus = Buffer.from(JSON.stringify({ kind: 'god' })).toString('base64url');
      const { status } = await postGraphQL(stack.gatewayUrl, '{ provinces { id } }', {
        authorization: `Bearer ${token}`,
        'x-acting-principal': bogus,
      });
      expect(status).toBe(401);
    });

    it('forbids a principal kind that a field does not allow', async () => {
      const token = await issueServiceToken('test', stack.config.secrets.serviceTokenSecret);
      const acting = encodeActingPrincipal({ kind: 'partner', partnerId: 'p', credentialId: 'c', scopes: [], contract: 'A' });
      const { body } = await postGraphQL(stack.gatewayUrl, `{ merchant(id: "${DEMO.merchantId}") { id } }`, {
        authorization: `Bearer ${token}`,
        'x-acting-principal': acting,
      });
      expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    });
  });

  describe('subgraphs', () => {
    const query = JSON.stringify({ query: '{ provinces { id } }' });

    it('refuse a request without a principal, with a forged one, and with an expired one', async () => {
      const url = stack.subgraphs.merchant.url;
      const forged = await signPrincipal({ kind: 'internal', service: 'x' }, 'not-the-principal-secret-at-all');
      const expired = await new SignJWT({ p: { kind: 'internal', service: 'x' } })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('qris-gateway')
        .setAudience('qris-subgraph')
        .setExpirationTime(Math.floor(Date.now() / 1000) - 120)
        .sign(new TextEncoder().encode(stack.config.secrets.principalSecret));
      for (const headers of [{}, { [PRINCIPAL_HEADER]: forged }, { [PRINCIPAL_HEADER]: expired }, { [PRINCIPAL_HEADER]: 'garbage' }]) {
        const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: query });
        expect(res.statusCode).toBe(401);
        expect(await res.body.json()).toEqual({
          errors: [{ message: 'missing or invalid principal', extensions: { code: 'UNAUTHENTICATED' } }],
        });
      }
    });

    it('answer a request carrying a principal signed by the gateway secret', async () => {
      for (const { url } of Object.values(stack.subgraphs)) {
        const token = await signPrincipal({ kind: 'service', service: 'test' }, stack.config.secrets.principalSecret);
        const res = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: token },
          body: JSON.stringify({ query: '{ _service { sdl } }' }),
        });
        expect(res.statusCode).toBe(200);
      }
    });

    it('each answer their own health check', async () => {
      for (const { app } of Object.values(stack.subgraphs)) {
        const res = await app.inject({ method: 'GET', url: '/health' });
        expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
      }
      expect((await stack.gateway.inject({ method: 'GET', url: '/health' })).json()).toEqual({ service: 'gateway', status: 'ok' });
    });
  });

  describe('REST adapters', () => {
    it('answer an unknown path with 404 and a wrong method with 405, both with the error body', async () => {
      const unknown = await stack.rest.inject({ method: 'GET', url: '/api/psp/v1/nothing?x=1' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'no route for GET /api/psp/v1/nothing', code: 'not_found' });
      const wrong = await stack.rest.inject({ method: 'DELETE', url: '/references/provinces' });
      expect(wrong.statusCode).toBe(405);
      expect(wrong.headers.allow).toBe('GET, HEAD');
      expect(wrong.json()).toEqual({ error: 'DELETE is not supported for /references/provinces', code: 'method_not_allowed' });
    });

    it('generate a request id when none or a malformed one is sent', async () => {
      const res = await stack.rest.inject({
        method: 'GET',
        url: '/references/provinces',
        headers: { 'x-request-id': 'bad id with spaces' },
      });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('keep answering while a subgraph process is down: REST runs the subgraphs itself (REST_SUBGRAPHS=in-process)', async () => {
      const requestId = 'req-test-0002';
      // A REST app as in production: its own embedded subgraphs on their own ORMs, not the test stack's shared ones.
      const rest = await createRestApp({
        config: stack.config,
        adapters: REST_ADAPTERS,
        operations: restOperations(stack.config, { subgraphs: { transport: 'embedded', definitions: SUBGRAPHS }, warmUp: false }),
        logStream: { write: (line: string) => void stack.logs.push(JSON.parse(line)) },
      });
      await stack.subgraphs.merchant.app.close();
      try {
        const res = await rest.inject({
          method: 'GET',
          url: '/references/districts?city_id=3171',
          headers: { 'x-request-id': requestId },
        });
        expect(res.statusCode).toBe(200);
        expect((await rest.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
        expect(new Set(stack.logs.filter((line) => line.reqId === requestId).map((line) => line.service))).toEqual(new Set(['rest']));
      } finally {
        await rest.close();
        await stack.restartSubgraph('merchant');
      }
    });

    it('answer 503 with the error body when the subgraphs are unreachable', async () => {
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', GATEWAY_TIMEOUT_MS: '500', REST_SUBGRAPHS: 'http' });
      const nowhere = 'http://127.0.0.1:9/graphql';
      const urls = { merchant: nowhere, outlet: nowhere, transaction: nowhere, catalog: nowhere };
      const app = await createRestApp({
        config,
        adapters: REST_ADAPTERS,
        operations: restOperations(config, { subgraphs: { transport: 'http', urls }, warmUp: false }),
      });
      try {
        const res = await app.inject({ method: 'GET', url: '/references/provinces' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ code: 'service_unavailable', retry_after_secs: 5 });
        const otp = await app.inject({ method: 'GET', url: '/health/otp-runtime' });
        expect(otp.statusCode).toBe(503);
        expect(otp.json()).toEqual({ service: 'core', status: 'unavailable', otp_runtime_store: 'postgresql' });
      } finally {
        await app.close();
      }
    });
  });

  describe('REST adapters reaching the subgraphs over HTTP (REST_SUBGRAPHS=http)', () => {
    beforeAll(async () => {
      await stack.close();
      stack = await startTestStack({ REST_SUBGRAPHS: 'http' });
    });

    it('carry X-Request-ID from the caller through the subgraph (the gateway runs in the REST process) into every log line', async () => {
      const requestId = 'req-test-0001';
      const res = await stack.rest.inject({
        method: 'GET',
        url: '/references/districts?city_id=3273',
        headers: { 'x-request-id': requestId },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toBe(requestId);
      const services = new Set(stack.logs.filter((line) => line.reqId === requestId).map((line) => line.service));
      expect([...services].sort()).toEqual(['rest', 'subgraph-merchant']);
    });

    it('answer 503 with the error body while a subgraph is down, and recover when it is back', async () => {
      await stack.subgraphs.merchant.app.close();
      try {
        const res = await stack.rest.inject({ method: 'GET', url: '/references/districts?city_id=3171' });
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({ error: 'a dependency is unavailable, retry later', code: 'service_unavailable', retry_after_secs: 5 });
        const health = await stack.rest.inject({ method: 'GET', url: '/health' });
        expect(health.statusCode).toBe(503);
        expect(health.json()).toEqual({ service: 'core', status: 'unavailable', db_reference_status: 'unavailable' });
      } finally {
        await stack.restartSubgraph('merchant');
      }
      const back = await stack.rest.inject({ method: 'GET', url: '/references/districts?city_id=3171' });
      expect(back.statusCode).toBe(200);
    });
  });
});
