import { createHmac } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createBank, onboardMerchant } from '@scripts/database-tasks';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

interface Key {
  keyId: string;
  secret: string;
}

/** psp-api.md §5 / DESIGN.md §4, computed here from the text: HMAC-SHA256 hex of "METHOD\nTARGET\nTIMESTAMP\nBODY". */
function signLookup(key: Key, target: string, timestamp = new Date().toISOString()): Record<string, string> {
  const signature = createHmac('sha256', key.secret).update(`GET\n${target}\n${timestamp}\n`).digest('hex');
  return { 'x-api-key-id': key.keyId, 'x-timestamp': timestamp, 'x-signature': signature };
}

describe('PSP lookups (/api/psp/v1/merchants…): HMAC, bank scope, paging, search, by-NMID cache', () => {
  let stack: TestStack;
  let bankA: Key & { eventKey: Key };
  let bankB: Key;
  let merchantsA: { merchant_id: string; outlets: { nmid: string | null }[] }[];
  let merchantB: { merchant_id: string; outlets: { nmid: string | null }[] };
  const demoKey: Key = { keyId: DEMO.bank.lookupKeyId, secret: DEMO.bank.lookupSecret };

  const get = (key: Key, target: string, extra: Record<string, string> = {}) =>
    stack.rest.inject({ method: 'GET', url: target, headers: { ...signLookup(key, target), ...extra } });

  beforeAll(async () => {
    stack = await startTestStack();
    const url = stack.database.adminUrl;
    const a = await createBank(stack.config, url, { code: 'BANKA', name: 'Bank A', tier: 'external' });
    const b = await createBank(stack.config, url, { code: 'BANKB', name: 'Bank B', tier: 'external' });
    bankA = { keyId: a.lookup_key_id, secret: a.lookup_secret, eventKey: { keyId: a.event_key_id, secret: a.event_secret } };
    bankB = { keyId: b.lookup_key_id, secret: b.lookup_secret };
    merchantsA = [];
    for (let i = 0; i < 5; i++) {
      merchantsA.push(
        await onboardMerchant(stack.config, url, {
          name: `Toko A${i}`,
          bankCode: 'BANKA',
          nmids: [`ID10261122100${i}0`, `ID10261122100${i}1`],
          outlets: 2,
          categoryCode: i % 2 === 0 ? '5411' : '5812',
        }),
      );
    }
    merchantB = await onboardMerchant(stack.config, url, { name: 'Toko B', bankCode: 'BANKB', nmids: ['ID1026112220000'], outlets: 1 });
    await adminQuery(
      url,
      `update merchant.merchants set phone = '+6281111111111', email = 'Owner@TokoA0.example', npwp = '012345678901234' where id = $1`,
      [merchantsA[0].merchant_id],
    );
    await adminQuery(url, `update merchant.merchants set phone = '+6281111111111' where id = $1`, [merchantB.merchant_id]);
  });
  afterAll(() => stack?.close());

  describe('signature (lookup scheme)', () => {
    it('accepts a request signed over method, target with query, timestamp and empty body', async () => {
      const res = await get(bankA, '/api/psp/v1/merchants?limit=2');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('60');
    });

    it.each([
      ['no headers', () => ({}), /missing x-api-key-id, x-timestamp, x-signature/],
      ['no signature', () => ({ ...signLookup(bankA, '/api/psp/v1/merchants'), 'x-signature': '' }), /missing x-signature/],
      ['an unknown key', () => signLookup({ keyId: 'lk_unknown', secret: 'x' }, '/api/psp/v1/merchants'), /unknown or inactive key/],
      ['an event key', () => signLookup(bankA.eventKey, '/api/psp/v1/merchants'), /unknown or inactive key/],
      [
        'another secret',
        () => signLookup({ keyId: bankA.keyId, secret: bankB.secret }, '/api/psp/v1/merchants'),
        /signature does not match/,
      ],
      ['a tampered query', () => signLookup(bankA, '/api/psp/v1/merchants?limit=1'), /signature does not match/],
      [
        'a timestamp 301 s old',
        () => signLookup(bankA, '/api/psp/v1/merchants', new Date(Date.now() - 301_000).toISOString()),
        /more than 300 s/,
      ],
      [
        'a timestamp 301 s ahead',
        () => signLookup(bankA, '/api/psp/v1/merchants', new Date(Date.now() + 301_000).toISOString()),
        /more than 300 s/,
      ],
      ['a timestamp without offset', () => signLookup(bankA, '/api/psp/v1/merchants', '2026-11-22T10:00:00'), /RFC 3339/],
      [
        'an uppercase signature',
        () => {
          const h = signLookup(bankA, '/api/psp/v1/merchants');
          return { ...h, 'x-signature': h['x-signature'].toUpperCase() };
        },
        /signature does not match/,
      ],
    ])('refuses %s with 401 and the error body', async (_name, headers, message) => {
      const res = await stack.rest.inject({ method: 'GET', url: '/api/psp/v1/merchants', headers: headers() });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: expect.stringMatching(message), code: 'unauthorized' });
    });

    it('accepts a timestamp with a +07:00 offset', async () => {
      const now = new Date(Date.now() + 7 * 3600_000).toISOString().replace('Z', '+07:00');
      const target = '/api/psp/v1/merchants?limit=1';
      const res = await stack.rest.inject({ method: 'GET', url: target, headers: signLookup(bankA, target, now) });
      expect(res.statusCode).toBe(200);
    });

    it('refuses a revoked key', async () => {
      const c = await createBank(stack.config, stack.database.adminUrl, { code: 'BANKC', name: 'Bank C', tier: 'external' });
      await adminQuery(stack.database.adminUrl, `update merchant.bank_credentials set status = 'revoked' where key_id = $1`, [
        c.lookup_key_id,
      ]);
      const res = await get({ keyId: c.lookup_key_id, secret: c.lookup_secret }, '/api/psp/v1/merchants');
      expect(res.statusCode).toBe(401);
    });
  });

  describe('list', () => {
    it('returns only the bank’s active merchants with every field of §2, paged by an opaque cursor', async () => {
      const seen: string[] = [];
      let target = '/api/psp/v1/merchants?limit=2';
      for (let page = 0; page < 5; page++) {
        const body = (await get(bankA, target)).json();
        expect(body.meta).toEqual({ returned_count: body.items.length, active_only: true });
        seen.push(...body.items.map((m: { id: string }) => m.id));
        if (!body.pagination.has_more) {
          expect(body.pagination.next_cursor).toBeNull();
          break;
        }
        target = `/api/psp/v1/merchants?limit=2&cursor=${body.pagination.next_cursor}`;
      }
      expect(seen).toEqual(merchantsA.map((m) => m.merchant_id));
      const first = (await get(bankA, '/api/psp/v1/merchants?limit=1')).json().items[0];
      expect(first).toEqual({
        id: merchantsA[0].merchant_id,
        merchant_name: 'Toko A0',
        legal_name: 'Toko A0',
        nmid: 'ID1026112210000',
        bank_code: 'BANKA',
        category_code: '5411',
        category_name: expect.any(String),
        phone: '+6281111111111',
        email: 'Owner@TokoA0.example',
        npwp: '012345678901234',
        address: { line: null, city: null, province: null, postal_code: null, country: 'ID' },
        status: 'active',
        kyc_status: 'verified',
        kyc_verified_at: expect.stringMatching(/Z$/),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    });

    it('neither repeats nor skips while merchants are added between pages', async () => {
      const page1 = (await get(bankA, '/api/psp/v1/merchants?limit=3')).json();
      const added = await onboardMerchant(stack.config, stack.database.adminUrl, {
        name: 'Toko A-new',
        bankCode: 'BANKA',
        nmids: ['ID1026112219990'],
        outlets: 1,
      });
      const page2 = (await get(bankA, `/api/psp/v1/merchants?limit=10&cursor=${page1.pagination.next_cursor}`)).json();
      const ids = [...page1.items, ...page2.items].map((m: { id: string }) => m.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...merchantsA.map((m) => m.merchant_id), added.merchant_id]);
      await adminQuery(stack.database.adminUrl, `update merchant.merchants set status = 'suspended' where id = $1`, [added.merchant_id]);
    });

    it('filters by category_code and updated_since, and adds outlets on request', async () => {
      const grocery = (await get(bankA, '/api/psp/v1/merchants?category_code=5411')).json().items;
      expect(grocery.map((m: { category_code: string }) => m.category_code)).toEqual(['5411', '5411', '5411']);
      expect((await get(bankA, '/api/psp/v1/merchants?updated_since=2999-01-01T00:00:00Z')).json().items).toEqual([]);
      const withOutlets = (await get(bankA, '/api/psp/v1/merchants?limit=1&include_outlets=true')).json().items[0];
      expect(withOutlets.outlets).toEqual([
        expect.objectContaining({ code: 'PUSAT', nmid: 'ID1026112210000', nmid_status: 'active', is_default: true }),
        expect.objectContaining({ code: 'CABANG-1', nmid: 'ID1026112210001', is_default: false }),
      ]);
      expect((await get(bankA, '/api/psp/v1/merchants?limit=1')).json().items[0].outlets).toBeUndefined();
    });

    it.each(['limit=501', 'limit=0', 'limit=x', 'cursor=not-a-cursor', 'updated_since=yesterday', 'category_code=12'])(
      'answers %s with 400',
      async (query) => {
        const res = await get(bankA, `/api/psp/v1/merchants?${query}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('bad_request');
      },
    );
  });

  describe('detail and by-NMID', () => {
    it('returns the detail with device fields; outlets and owners only when asked for', async () => {
      const id = merchantsA[1].merchant_id;
      const plain = (await get(bankA, `/api/psp/v1/merchants/${id}`)).json();
      expect(plain.merchant).toMatchObject({ id, merchant_name: 'Toko A1', device_model: 'QRIS Soundbox S1', device_status: 'online' });
      expect(plain.outlets).toEqual([]);
      expect(plain.owners).toEqual([]);
      const full = (await get(bankA, `/api/psp/v1/merchants/${id}?include_outlets=true&include_owners=true`)).json();
      expect(full.outlets).toHaveLength(2);
    });

    it('fills owners when include_owners=true: live owners only, the name in full, phone and email masked', async () => {
      const url = stack.database.adminUrl;
      const { merchant_id: id, outlets } = merchantsA[4];
      const person = async (phone: string, fullName: string, email: string | null) => {
        const [{ id: userId }] = await adminQuery<{ id: string }>(
          url,
          `insert into merchant.users (id, phone, full_name, email, created_at, updated_at)
           values (gen_random_uuid(), $1, $2, $3, now(), now()) returning id`,
          [phone, fullName, email],
        );
        return userId;
      };
      const member = (userId: string, role: string, revoked = false) =>
        adminQuery(
          url,
          `insert into merchant.merchant_users (id, merchant_id, user_id, role, created_at, revoked_at)
           values (gen_random_uuid(), $1, $2, $3, '2026-11-01T03:00:00Z', $4)`,
          [id, userId, role, revoked ? new Date() : null],
        );
      const owner = await person('+6281234567890', 'Budi Santoso', 'budi.santoso@example.com');
      await member(owner, 'owner');
      await member(await person('+6281298765432', 'Sari Admin', null), 'admin');
      await member(await person('+6281355550000', 'Former Owner', null), 'owner', true);
      const expected = [
        {
          user_id: owner,
          full_name: 'Budi Santoso',
          phone: '+62812****7890',
          email: 'b***@example.com',
          role: 'owner',
          since: '2026-11-01T03:00:00.000Z',
        },
      ];

      const detail = await get(bankA, `/api/psp/v1/merchants/${id}?include_owners=true`);
      expect(detail.statusCode).toBe(200);
      expect(detail.json().owners).toEqual(expected);
      expect(detail.body).not.toContain('6281234567890');
      expect(detail.body).not.toContain('budi.santoso@');
      expect((await get(bankA, `/api/psp/v1/merchants/${id}?include_outlets=true`)).json().owners).toEqual([]);
      // By NMID, alone and in a micro-batch with another bank's lookups (each bank sees only its own merchants).
      expect((await get(bankA, `/api/psp/v1/merchants/by-nmid/${outlets[1].nmid}?include_owners=true`)).json().owners).toEqual(expected);
      const together = await Promise.all([
        get(bankA, `/api/psp/v1/merchants/by-nmid/${outlets[0].nmid}?include_owners=true&include_outlets=true`),
        get(bankB, `/api/psp/v1/merchants/by-nmid/${merchantB.outlets[0].nmid}?include_owners=true&include_outlets=true`),
        get(bankB, `/api/psp/v1/merchants/by-nmid/${outlets[0].nmid}?include_owners=true&include_outlets=true`),
      ]);
      expect(together.map((r) => r.statusCode)).toEqual([200, 200, 404]);
      expect(together[0].json().owners).toEqual(expected);
      expect(together[1].json().owners).toEqual([]);
    });

    it('answers 404 for another bank’s merchant and for an unknown id, 400 for a non-UUID', async () => {
      expect((await get(bankA, `/api/psp/v1/merchants/${merchantB.merchant_id}`)).statusCode).toBe(404);
      expect((await get(bankA, '/api/psp/v1/merchants/019a0000-0000-7000-8000-000000000000')).json()).toEqual({
        error: 'merchant not found',
        code: 'not_found',
      });
      expect((await get(bankA, '/api/psp/v1/merchants/12345')).statusCode).toBe(400);
      expect((await get(bankB, `/api/psp/v1/merchants/${merchantB.merchant_id}`)).statusCode).toBe(200);
    });

    it('resolves any outlet’s NMID to its merchant, only for the bank that issued it', async () => {
      const second = (await get(bankA, '/api/psp/v1/merchants/by-nmid/ID1026112210021')).json();
      expect(second.merchant.id).toBe(merchantsA[2].merchant_id);
      expect((await get(bankB, '/api/psp/v1/merchants/by-nmid/ID1026112210021')).statusCode).toBe(404);
      expect((await get(bankA, '/api/psp/v1/merchants/by-nmid/ID1026112220000')).statusCode).toBe(404);
      expect((await get(bankA, '/api/psp/v1/merchants/by-nmid/ID9999999999999')).json()).toEqual({
        error: 'no merchant with this NMID',
        code: 'not_found',
      });
      expect((await get(bankA, '/api/psp/v1/merchants/by-nmid/12345')).statusCode).toBe(400);
    });

    it('caches by-NMID and detail answers for 30 s per bank (psp-api.md §8)', async () => {
      const target = '/api/psp/v1/merchants/by-nmid/ID1026112210030';
      const detail = `/api/psp/v1/merchants/${merchantsA[3].merchant_id}?include_owners=true`;
      const first = await get(bankA, target);
      expect(first.headers['cache-control']).toBe('private, max-age=30');
      expect((await get(bankA, detail)).headers['cache-control']).toBe('private, max-age=30');
      await adminQuery(stack.database.adminUrl, `update merchant.merchants set name = 'Renamed' where id = $1`, [
        merchantsA[3].merchant_id,
      ]);
      expect((await get(bankA, target)).json().merchant.merchant_name).toBe('Toko A3');
      expect((await get(bankA, detail)).json().merchant.merchant_name).toBe('Toko A3');
      // Another bank never gets this bank's cached answer; another query is another entry.
      expect((await get(bankB, target)).statusCode).toBe(404);
      expect((await get(bankB, detail)).statusCode).toBe(404);
      expect((await get(bankA, `/api/psp/v1/merchants/${merchantsA[3].merchant_id}`)).json().merchant.merchant_name).toBe('Renamed');
    });

    it('answers cache misses of several banks arriving together with shared calls, each bank seeing only its own', async () => {
      const outletCalls = () => stack.restFetches('outlet');
      const nmidsA = merchantsA.flatMap((m) => m.outlets.map((o) => o.nmid!));
      const before = await outletCalls();
      const asks = [
        ...nmidsA.map((nmid, i) => ({ key: bankA, nmid, merchantId: merchantsA[Math.floor(i / 2)].merchant_id })),
        ...nmidsA.map((nmid) => ({ key: bankB, nmid, merchantId: null })), // another bank's NMIDs
        { key: bankB, nmid: 'ID1026112220000', merchantId: merchantB.merchant_id },
        { key: bankA, nmid: 'ID1026112220000', merchantId: null },
      ];
      const answers = await Promise.all(
        asks.map(({ key, nmid }) => get(key, `/api/psp/v1/merchants/by-nmid/${nmid}?include_outlets=true`)),
      );
      answers.forEach((answer, i) => {
        if (asks[i].merchantId === null) return expect(answer.statusCode).toBe(404);
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toMatchObject({
          merchant: { id: asks[i].merchantId },
          outlets: [expect.any(Object), ...(i < nmidsA.length ? [expect.any(Object)] : [])],
        });
      });
      // 22 misses: far fewer outlet-subgraph calls than the one or two a lookup alone takes.
      const calls = (await outletCalls()) - before;
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThan(asks.length);
    });

    it('lets the demo bank look up the demo merchant', async () => {
      const res = await get(demoKey, `/api/psp/v1/merchants/by-nmid/${DEMO.outlets[1].nmid}`);
      expect(res.json().merchant).toMatchObject({ id: DEMO.merchantId, bank_code: 'BDEMO', nmid: DEMO.outlets[0].nmid });
    });
  });

  describe('search', () => {
    it('finds by phone in any Indonesian form, email case-insensitively, npwp and nmid, within the bank only', async () => {
      const idA0 = merchantsA[0].merchant_id;
      for (const query of [
        'phone=081111111111',
        'phone=%2B6281111111111',
        'email=owner@tokoa0.EXAMPLE',
        'npwp=01.234.567.8-901.234',
        'nmid=ID1026112210001',
        'phone=081111111111&nmid=ID1026112210001',
      ]) {
        const body = (await get(bankA, `/api/psp/v1/merchants/search?${query}`)).json();
        expect({ query, ids: body.items.map((m: { id: string }) => m.id), meta: body.meta }).toEqual({
          query,
          ids: [idA0],
          meta: { returned_count: 1 },
        });
      }
      expect((await get(bankB, '/api/psp/v1/merchants/search?phone=081111111111')).json().items.map((m: { id: string }) => m.id)).toEqual([
        merchantB.merchant_id,
      ]);
      expect((await get(bankB, '/api/psp/v1/merchants/search?nmid=ID1026112210001')).json().items).toEqual([]);
      expect((await get(bankA, '/api/psp/v1/merchants/search?phone=081111111111&nmid=ID1026112210011')).json().items).toEqual([]);
    });

    it('requires a criterion (400)', async () => {
      const res = await get(bankA, '/api/psp/v1/merchants/search');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'give at least one of phone, email, npwp, nmid', code: 'bad_request' });
    });
  });
});
