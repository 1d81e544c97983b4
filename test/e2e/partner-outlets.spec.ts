import { randomUUID } from 'node:crypto';
import { createPartner, issuePartnerCredential, onboardMerchant } from '@scripts/database-tasks';
import { NEVER, NEVER_IN_A, OUTLET_IDENTIFIERS, keysOf } from '../support/partner-masking';
import { gql, operatorHeaders } from '../support/graphql';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const BASE = '/api/partner/v1';

describe('Partner API outlet endpoints and the per-credential rate limit', () => {
  let stack: TestStack;
  let url: string;
  let merchant: string;
  let outlets: { outlet_id: string; code: string; nmid: string | null }[];
  let outsider: { merchant_id: string; outlets: { outlet_id: string }[] };
  const bodies: { contract: 'A' | 'B'; path: string; body: unknown }[] = [];
  const tokens: Record<string, string> = {};

  const issue = async (
    name: string,
    contract: 'A' | 'B',
    scopes: string[],
    extra: { outletsEnabled?: boolean; rateLimitPerMinute?: number } = {},
  ) => {
    const key = await issuePartnerCredential(stack.config, url, { partnerCode: 'POUT', name, contract, scopes, mode: 'jwt', ...extra });
    const res = await stack.rest.inject({
      method: 'POST',
      url: `${BASE}/auth/token`,
      payload: { credential_key: key.credential_key, credential_secret: key.credential_secret },
    });
    expect(res.statusCode).toBe(200);
    return res.json().access_token as string;
  };
  const get = async (token: string, path: string, contract?: 'A' | 'B', headers: Record<string, string> = {}) => {
    const res = await stack.rest.inject({
      method: 'GET',
      url: `${BASE}${path}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
    if (contract && res.statusCode === 200) bodies.push({ contract, path, body: res.json() });
    return res;
  };
  const tx = async (outletId: string, at: string, status: string, gross: number) => {
    const id = randomUUID();
    const fee = status === 'success' ? Math.round(gross * 0.007) : 0;
    await adminQuery(
      url,
      `insert into "transaction".transactions (id, merchant_id, outlet_id, transaction_code, status, gross_amount, transaction_at, created_at, updated_at,
         payment_method, currency, mdr_rate, mdr_fee_amount, net_amount_after_mdr, settlement_status, rrn, payer_name_masked)
       values ($1, $2, $3, $4, $5, $6, $7, $7, $7, 'qris', 'IDR', $8, $9, $10, 'unsettled', '998877665544', 'A*** B**')`,
      [id, merchant, outletId, `TXO-${id.slice(0, 8)}`, status, gross, at, fee ? '0.0070' : '0', fee, gross - fee],
    );
    return id;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    url = stack.database.adminUrl;
    await createPartner(stack.config, url, { code: 'POUT', name: 'Partner Outlets', referralCode: 'POUTREF' });
    const referred = await onboardMerchant(stack.config, url, {
      name: 'Toko Cabang',
      bankCode: 'BDEMO',
      nmids: ['ID4026112410001', 'ID4026112410002'],
      outlets: 3,
      referralCode: 'POUTREF',
    });
    merchant = referred.merchant_id;
    outlets = referred.outlets;
    outsider = await onboardMerchant(stack.config, url, { name: 'Toko Lain', bankCode: 'BDEMO', nmids: ['ID4026112410003'], outlets: 1 });
    await adminQuery(
      url,
      `update outlet.outlets set mid = 'MID-0001', address_line = 'Jl. Sabang 1', city = 'Jakarta Pusat' where id = $1`,
      [outlets[0].outlet_id],
    );
    await adminQuery(
      url,
      `update outlet.terminals set tid = 'T0001', serial_number = 'SN-0001', firmware_version = null, last_seen_at = '2026-11-20T03:00:00Z', status = 'online' where outlet_id = $1`,
      [outlets[0].outlet_id],
    );

    // Settlement accounts, corporate and one outlet's own, set by an operator: partners must never see them.
    const operator = await operatorHeaders(stack, ['admin']);
    for (const outletId of [null, outlets[0].outlet_id]) {
      const set = await gql(
        stack,
        `mutation ($input: SetSettlementAccountInput!) { setSettlementAccount(input: $input) { current { accountNumber } pending { accountNumber } } }`,
        { input: { merchantId: merchant, outletId, bankCode: '014', accountNumber: '5550001234', holderName: 'PEMILIK CABANG' } },
        operator,
      );
      const { current, pending } = set.data?.setSettlementAccount ?? {};
      expect((current ?? pending)?.accountNumber).toBe('5550001234');
    }
    await tx(outlets[0].outlet_id, '2026-11-02T03:00:00Z', 'success', 10_000);
    await tx(outlets[0].outlet_id, '2026-11-03T03:00:00Z', 'failed', 4_000);
    await tx(outlets[1].outlet_id, '2026-11-04T03:00:00Z', 'success', 25_000);

    tokens.A = await issue('outlets A', 'A', ['merchant.read', 'transaction.read'], { outletsEnabled: true });
    tokens.B = await issue('outlets B', 'B', ['merchant.read', 'transaction.read'], { outletsEnabled: true });
    tokens.noOutlets = await issue('no outlets', 'A', ['merchant.read', 'transaction.read']);
    tokens.merchantOnly = await issue('merchant only', 'B', ['merchant.read'], { outletsEnabled: true });
  });

  afterAll(async () => {
    await stack?.close();
  });

  const paths = () => [
    `/merchants/${merchant}/outlets`,
    `/merchants/${merchant}/outlets/${outlets[0].outlet_id}`,
    `/merchants/${merchant}/outlets/${outlets[0].outlet_id}/devices`,
    `/merchants/${merchant}/outlets/${outlets[0].outlet_id}/transactions`,
  ];

  it('refuses every outlet endpoint with 403 forbidden unless the operator enabled them for the credential', async () => {
    for (const path of paths()) {
      const res = await get(tokens.noOutlets, path);
      expect({ path, status: res.statusCode, body: res.json() }).toEqual({
        path,
        status: 403,
        body: { error: 'outlet endpoints are not enabled for this credential', code: 'forbidden' },
      });
    }
  });

  it('lists the live outlets, default first: contract A with merchant_name and +07:00 times, contract B with count', async () => {
    const a = await get(tokens.A, `/merchants/${merchant}/outlets`, 'A');
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ merchant_id: merchant, merchant_name: 'Toko Cabang', default_outlet_id: outlets[0].outlet_id });
    expect(Object.keys(a.json())).toEqual(['merchant_id', 'merchant_name', 'default_outlet_id', 'items']);
    expect(a.json().items).toHaveLength(3);
    expect(a.json().items[0]).toEqual({
      outlet_id: outlets[0].outlet_id,
      merchant_id: merchant,
      outlet_code: 'PUSAT',
      outlet_name: 'Toko Cabang',
      is_default: true,
      nmid: 'ID4026112410001',
      nmid_status: 'active',
      mid: 'MID-0001',
      address_line: 'Jl. Sabang 1',
      city: 'Jakarta Pusat',
      province: null,
      postal_code: null,
      device_count: 1,
      created_at: expect.stringMatching(/\+07:00$/),
    });
    expect(a.json().items[2]).toMatchObject({ is_default: false, nmid: null, nmid_status: null });

    const b = await get(tokens.B, `/merchants/${merchant}/outlets`, 'B');
    expect(Object.keys(b.json())).toEqual(['merchant_id', 'default_outlet_id', 'items', 'count']);
    expect(b.json().count).toBe(3);
    expect(b.json().items[0].created_at).toMatch(/Z$/);
  });

  it('shows one outlet and its devices (tid and serial number, never the raw device id)', async () => {
    const detail = await get(tokens.B, `/merchants/${merchant}/outlets/${outlets[0].outlet_id}`, 'B');
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ outlet_id: outlets[0].outlet_id, outlet_code: 'PUSAT', mid: 'MID-0001' });
    expect(detail.json().created_at).toMatch(/Z$/);
    const detailA = await get(tokens.A, `/merchants/${merchant}/outlets/${outlets[0].outlet_id}`, 'A');
    expect(detailA.json()).toMatchObject({
      outlet_id: outlets[0].outlet_id,
      outlet_code: 'PUSAT',
      device_count: 1,
      created_at: expect.stringMatching(/\+07:00$/),
    });

    const a = await get(tokens.A, `/merchants/${merchant}/outlets/${outlets[0].outlet_id}/devices`, 'A');
    expect(a.json()).toEqual({
      merchant_id: merchant,
      outlet_id: outlets[0].outlet_id,
      items: [
        {
          tid: 'T0001',
          serial_number: 'SN-0001',
          model: expect.any(String),
          firmware_version: null,
          status: 'online',
          last_seen_at: '2026-11-20T10:00:00+07:00',
        },
      ],
    });
    const b = await get(tokens.B, `/merchants/${merchant}/outlets/${outlets[0].outlet_id}/devices`, 'B');
    expect(b.json()).toMatchObject({ count: 1, items: [{ last_seen_at: '2026-11-20T03:00:00.000Z' }] });
  });

  it('lists one outlet’s transactions with the merchant transactions parameters of each contract', async () => {
    const a = await get(
      tokens.A,
      `/merchants/${merchant}/outlets/${outlets[0].outlet_id}/transactions?period=monthly&anchor_date=2026-11-15`,
      'A',
    );
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({
      merchant_id: merchant,
      outlet_id: outlets[0].outlet_id,
      period: 'monthly',
      period_start_at: '2026-11-01T00:00:00+07:00',
      summary: {
        gross_amount: 10_000,
        transaction_count: 1,
        outlet_breakdown: [{ outlet_id: outlets[0].outlet_id, gross_amount: 10_000, transaction_count: 1 }],
      },
    });
    expect(a.json().items.map((i: { gross_amount: number; outlet_id: string }) => [i.gross_amount, i.outlet_id])).toEqual([
      [4_000, outlets[0].outlet_id],
      [10_000, outlets[0].outlet_id],
    ]);

    const b = await get(
      tokens.B,
      `/merchants/${merchant}/outlets/${outlets[1].outlet_id}/transactions?transaction_at_from=2026-11-01T00:00:00%2B07:00`,
      'B',
    );
    expect(b.json()).toMatchObject({
      merchant_id: merchant,
      outlet_id: outlets[1].outlet_id,
      count: 1,
      items: [{ gross_amount: 25_000, mdr_fee_amount: 175, currency: 'IDR', outlet_id: outlets[1].outlet_id }],
    });

    expect((await get(tokens.B, `/merchants/${merchant}/outlets/${outlets[1].outlet_id}/transactions?period=daily`)).statusCode).toBe(400);
    expect((await get(tokens.B, `/merchants/${merchant}/outlets/${outlets[1].outlet_id}/transactions?limit=501`)).statusCode).toBe(400);
  });

  it('answers 404 for an outlet that is not the merchant’s, 403 outside the scope or without the scope', async () => {
    for (const outletId of [outsider.outlets[0].outlet_id, randomUUID(), 'not-a-uuid']) {
      for (const suffix of ['', '/devices', '/transactions']) {
        const res = await get(tokens.A, `/merchants/${merchant}/outlets/${outletId}${suffix}`);
        expect({ suffix, status: res.statusCode, code: res.json().code }).toEqual({ suffix, status: 404, code: 'not_found' });
      }
    }
    for (const path of [
      `/merchants/${outsider.merchant_id}/outlets`,
      `/merchants/${outsider.merchant_id}/outlets/${outsider.outlets[0].outlet_id}/transactions`,
    ]) {
      const res = await get(tokens.B, path);
      expect({ path, status: res.statusCode, code: res.json().code }).toEqual({ path, status: 403, code: 'forbidden' });
    }
    const noScope = await get(tokens.merchantOnly, `/merchants/${merchant}/outlets/${outlets[0].outlet_id}/transactions`);
    expect([noScope.statusCode, noScope.json().code]).toEqual([403, 'forbidden']);
  });

  it('never returns a masked field; nmid, mid, tid and serial_number only from the outlet endpoints', () => {
    expect(new Set(bodies.map((b) => b.contract))).toEqual(new Set(['A', 'B']));
    for (const { contract, path, body } of bodies) {
      const allowed = path.includes('/transactions') ? [] : OUTLET_IDENTIFIERS;
      const leaked = [...keysOf(body)].filter(
        (key) => (NEVER.includes(key) && !allowed.includes(key)) || (contract === 'A' && NEVER_IN_A.includes(key)),
      );
      expect({ path, leaked }).toEqual({ path, leaked: [] });
      expect(JSON.stringify(body)).not.toMatch(/998877665544|A\*\*\* B\*\*/);
      // No settlement account in any form: number, holder or masked number.
      expect(JSON.stringify(body)).not.toMatch(/5550001234|\*+1234|PEMILIK CABANG/);
    }
  });

  it('counts 60 requests per minute per credential by default, across endpoints, with the rate headers', async () => {
    const res = await get(tokens.A, `/merchants/${merchant}/outlets`, undefined, {
      'x-request-id': '6f1c2b1e-8a43-4c4e-9d7e-0d5c3d0f1a2b',
    });
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThan(60);
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    expect(res.headers['x-request-id']).toBe('6f1c2b1e-8a43-4c4e-9d7e-0d5c3d0f1a2b');
  });

  it('applies a credential’s own rate: the budget is shared by every endpoint, then 429 with retry_after_secs and Retry-After', async () => {
    const limited = await issue('limited', 'B', ['merchant.read', 'transaction.read'], { outletsEnabled: true, rateLimitPerMinute: 3 });
    const remaining: string[] = [];
    for (const path of [
      `/merchants/${merchant}/outlets`,
      `/merchants/${merchant}/transactions`,
      `/partners/${(await get(tokens.B, `/merchants/${merchant}/outlets`)).json().merchant_id}/referral-merchants`,
    ]) {
      const res = await get(limited, path);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      remaining.push(res.headers['x-ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await get(limited, `/merchants/${merchant}/outlets/${outlets[0].outlet_id}`);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      error: `rate limit exceeded, retry in ${retryAfter} s`,
      code: 'rate_limit_exceeded',
      retry_after_secs: retryAfter,
    });
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // Another credential of the same partner keeps its own budget.
    expect((await get(tokens.B, `/merchants/${merchant}/outlets`)).statusCode).toBe(200);
  });
});
