import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { apiPagesDir } from '@lib/rest/api-pages';
import { sessionFor } from '../support/core-auth';
import { bearer, jakartaTime, restClient, signing } from '../support/openapi-client';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * A client generated from the OpenAPI document (rest-adapters/generated/openapi.ts, openapi-fetch) drives the bank,
 * partner and app APIs over HTTP with the demo credentials: if the document and the server disagree on paths,
 * parameters, credentials or bodies, this fails (at compile time for the types, at run time for the rest).
 */
describe('generated OpenAPI client against the stack', () => {
  let stack: TestStack;
  let baseUrl: string;

  beforeAll(async () => {
    stack = await startTestStack();
    baseUrl = await stack.restUrl();
  });
  afterAll(() => stack?.close());

  it('bank: a signed lookup by NMID and a signed payment event', async () => {
    const lookups = restClient(baseUrl, signing('bankLookup', DEMO.bank.lookupKeyId, DEMO.bank.lookupSecret));
    const found = await lookups.GET('/api/psp/v1/merchants/by-nmid/{nmid}', {
      params: { path: { nmid: DEMO.outlets[0].nmid }, query: { include_outlets: true } },
    });
    expect(found.response.status).toBe(200);
    expect(found.data?.merchant.id).toBe(DEMO.merchantId);
    expect(found.data?.outlets.map((o) => o.nmid)).toEqual(expect.arrayContaining([DEMO.outlets[0].nmid]));
    expect(found.response.headers.get('x-ratelimit-limit')).toBe('1000');

    const events = restClient(baseUrl, signing('bankEvent', DEMO.bank.eventKeyId, DEMO.bank.eventSecret));
    const event = await events.POST('/psp/v1/events', {
      body: {
        external_event_id: `openapi-client-${Date.now()}`,
        event_type: 'qris.payment.success',
        nmid: DEMO.outlets[0].nmid,
        gross_amount: 25000,
        transaction_code: `TRX-OPENAPI-${Date.now()}`,
        transaction_at: jakartaTime(new Date()),
        status: 'success',
      },
    });
    expect(event.response.status).toBe(200);
    expect(event.data).toMatchObject({ status: 'success', flow: 'transaction.created', merchant_id: DEMO.merchantId });

    const unsigned = await restClient(baseUrl).GET('/api/psp/v1/merchants', { params: { query: {} } });
    expect(unsigned.response.status).toBe(401);
    expect(unsigned.error?.code).toBe('unauthorized');
  });

  it('partner: a token from the demo credential, then its referral merchants', async () => {
    const { contractA } = DEMO.partner.credentials;
    const token = await restClient(baseUrl).POST('/api/partner/v1/auth/token', {
      body: { credential_key: contractA.credentialKey, credential_secret: contractA.secret },
    });
    expect(token.response.status).toBe(200);
    const accessToken = token.data!.access_token;
    const partner = restClient(baseUrl, bearer(accessToken));
    const list = await partner.GET('/api/partner/v1/partners/{partner_id}/referral-merchants', {
      params: { path: { partner_id: DEMO.partner.id } },
    });
    expect(list.response.status).toBe(200);
    const ids = (list.data?.items ?? []).map((item) => item.merchant_id);
    expect(ids).toEqual(expect.arrayContaining([DEMO.merchantId, DEMO.otherMerchants[1].id]));
  });

  it('app: the demo owner’s transactions of today with a bearer session', async () => {
    const { authorization } = await sessionFor(stack, DEMO.owner.userId);
    const app = restClient(baseUrl, bearer(authorization.replace(/^Bearer /, '')));
    const today = await app.GET('/merchant/transactions', { params: { query: { period: 'today' } } });
    expect(today.response.status).toBe(200);
    expect(today.data).toMatchObject({ merchant_id: DEMO.merchantId, merchant_name: 'Warung Kopi Demo', period: 'today' });
    expect(today.data?.period_start_at).toMatch(/\+08:00$/);
  });

  describe('the walkthroughs’ copy-paste commands (docs/api/, bash + openssl + curl)', () => {
    const blocks = (page: string) =>
      [...readFileSync(path.join(apiPagesDir(), page), 'utf8').matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
    // Asynchronously: the server answering curl runs in this process.
    const run = async (script: string) =>
      (await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, BASE: baseUrl }, timeout: 20_000 }))
        .stdout;

    it('bank: the signed lookup and the signed event', async () => {
      const [lookup, event] = blocks('bank.md');
      expect(JSON.parse(await run(lookup)).merchant.id).toBe(DEMO.merchantId);
      expect(JSON.parse(await run(event))).toMatchObject({ status: 'success', flow: 'transaction.created' });
    });

    it('partner: the token exchange and a bearer request', async () => {
      const [jwt] = blocks('partner.md');
      expect(JSON.parse(await run(jwt)).partner_id).toBe(DEMO.partner.id);
    });
  });
});
