import type { InjectOptions } from 'fastify';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createBank, grantPartnerAccess, onboardMerchant, ungrantPartnerAccess } from '@scripts/database-tasks';
import {
  ALL_ROUTES,
  type Credentials,
  SECURITY_STACK_ENV,
  authHeaders,
  authKindOf,
  demoCredentials,
  hmacHex,
  pathOf,
  rfc3339Now,
} from '../support/route-requests';
import { sessionFor } from '../support/core-auth';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * Who may see what, as data: partner × merchant (in scope, out of scope, revoked), bank × merchant (own, another
 * bank's, not yet visible), user × merchant and outlet on the POS surfaces (another merchant's ids → 404),
 * sandbox × live (sandbox bank, partner and owner against live data and back), and every authenticated route refusing
 * a request without its credential (internal surfaces without the key → 401).
 */
describe('tenant isolation', () => {
  let stack: TestStack;
  let credentials: Credentials;
  const ids = {
    otherBankMerchant: '',
    otherBankNmid: 'ID1026112288801',
    invisibleMerchant: '',
    otherBankInvisible: '',
    foreignCategory: '',
    foreignProduct: '',
  };
  let bankX = { keyId: '', secret: '' };
  const otherMerchant = DEMO.otherMerchants[0];
  const [ownMerchant, ownOutlet] = [DEMO.merchantId, DEMO.outlets[0].id];

  const as = (
    kind: 'bank-lookup' | 'partner' | 'pos-user' | 'pos-internal',
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): InjectOptions => {
    const raw = body === undefined ? '' : JSON.stringify(body);
    return {
      method: method,
      url,
      headers: { ...authHeaders(kind, credentials, method, url, raw), ...(raw ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(raw ? { payload: raw } : {}),
    };
  };

  beforeAll(async () => {
    stack = await startTestStack(SECURITY_STACK_ENV);
    credentials = await demoCredentials(stack);
    const created = await createBank(stack.config, stack.database.adminUrl, { code: 'BANKX', name: 'Bank X', tier: 'external' });
    bankX = { keyId: created.lookup_key_id, secret: created.lookup_secret };
    ids.otherBankMerchant = (
      await onboardMerchant(stack.config, stack.database.adminUrl, {
        name: 'Toko Bank X',
        bankCode: 'BANKX',
        nmids: [ids.otherBankNmid],
        outlets: 1,
      })
    ).merchant_id;
    // Of the caller's own bank, but with no NMID yet: not visible to a bank (DESIGN.md §9).
    ids.invisibleMerchant = (
      await onboardMerchant(stack.config, stack.database.adminUrl, {
        name: 'Toko Belum Aktif',
        bankCode: DEMO.bank.code,
        nmids: [],
        outlets: 1,
      })
    ).merchant_id;
    ids.otherBankInvisible = (
      await onboardMerchant(stack.config, stack.database.adminUrl, { name: 'Toko X Belum Aktif', bankCode: 'BANKX', nmids: [], outlets: 1 })
    ).merchant_id;
    const asOther = { 'x-merchant-id': otherMerchant.id };
    const category = await stack.rest.inject(as('pos-internal', 'POST', '/poslite/catalog/categories', { name: 'Kategori Lain' }, asOther));
    ids.foreignCategory = category.json().id;
    const product = await stack.rest.inject(
      as('pos-internal', 'POST', '/poslite/catalog/products', { name: 'Produk Lain', sku: 'LAIN-1', sell_price_amount: 5000 }, asOther),
    );
    ids.foreignProduct = product.json().id;
    expect([category.statusCode, product.statusCode]).toEqual([201, 201]);
  });
  afterAll(() => stack?.close());

  describe('partner × merchant', () => {
    const cases: [string, () => string, number][] = [
      ['a referred merchant (in scope)', () => `/api/partner/v1/merchants/${ownMerchant}/transactions`, 200],
      ['a merchant outside the scope', () => `/api/partner/v1/merchants/${otherMerchant.id}/transactions`, 403],
      ['another bank’s merchant', () => `/api/partner/v1/merchants/${ids.otherBankMerchant}/scoring-summary`, 403],
      [
        'another merchant’s outlet under an own merchant',
        () => `/api/partner/v1/merchants/${ownMerchant}/outlets/${otherMerchant.outlets[0].id}`,
        404,
      ],
      ['another partner’s id in the path', () => `/api/partner/v1/partners/${otherMerchant.id}/referral-merchants`, 403],
    ];
    it.each(cases)('%s → %i', async (_what, url, status) => {
      const res = await stack.rest.inject(as('partner', 'GET', url()));
      expect(res.statusCode).toBe(status);
    });

    it('a consent grants access, its revocation ends it at once', async () => {
      const url = `/api/partner/v1/merchants/${otherMerchant.id}/scoring-summary`;
      await grantPartnerAccess(stack.config, stack.database.adminUrl, {
        partnerCode: DEMO.partner.code,
        merchantId: otherMerchant.id,
        type: 'consent',
      });
      expect((await stack.rest.inject(as('partner', 'GET', url))).statusCode).toBe(200);
      await ungrantPartnerAccess(stack.config, stack.database.adminUrl, {
        partnerCode: DEMO.partner.code,
        merchantId: otherMerchant.id,
        type: 'consent',
      });
      expect((await stack.rest.inject(as('partner', 'GET', url))).statusCode).toBe(403);
    });
  });

  describe('bank × merchant', () => {
    const cases: [string, () => string, number][] = [
      ['its own merchant', () => `/api/psp/v1/merchants/${ownMerchant}`, 200],
      ['its own NMID', () => `/api/psp/v1/merchants/by-nmid/${DEMO.outlets[0].nmid}`, 200],
      ['another bank’s merchant', () => `/api/psp/v1/merchants/${ids.otherBankMerchant}`, 404],
      ['another bank’s NMID', () => `/api/psp/v1/merchants/by-nmid/${ids.otherBankNmid}`, 404],
      // The tier-1 PSP completes activations (it assigns NMIDs), so it sees its merchants before (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md).
      ['the tier-1 PSP: its merchant without an NMID yet', () => `/api/psp/v1/merchants/${ids.invisibleMerchant}`, 200],
      ['a search by another bank’s NMID', () => `/api/psp/v1/merchants/search?nmid=${ids.otherBankNmid}`, 200],
    ];
    it.each(cases)('%s → %i', async (what, url, status) => {
      const res = await stack.rest.inject(as('bank-lookup', 'GET', url()));
      expect(res.statusCode).toBe(status);
      if (what.startsWith('a search')) expect(res.json().items ?? res.json().merchants ?? []).toEqual([]);
      if (status === 404) expect(res.json()).toEqual({ error: expect.any(String), code: 'not_found' });
    });

    it('another bank (not tier 1) does not see its own merchant before activation, nor the demo bank’s', async () => {
      const lookup = (url: string) => {
        const timestamp = rfc3339Now();
        return stack.rest.inject({
          method: 'GET',
          url,
          headers: {
            'x-api-key-id': bankX.keyId,
            'x-timestamp': timestamp,
            'x-signature': hmacHex(bankX.secret, `GET\n${url}\n${timestamp}\n`),
          },
        });
      };
      expect((await lookup(`/api/psp/v1/merchants/${ids.otherBankMerchant}`)).statusCode).toBe(200);
      expect((await lookup(`/api/psp/v1/merchants/${ids.otherBankInvisible}`)).statusCode).toBe(404);
      expect((await lookup(`/api/psp/v1/merchants/${ownMerchant}`)).statusCode).toBe(404);
      expect((await lookup(`/api/psp/v1/merchants/by-nmid/${DEMO.outlets[0].nmid}`)).statusCode).toBe(404);
    });

    it('lists only its own visible merchants', async () => {
      const res = await stack.rest.inject(as('bank-lookup', 'GET', '/api/psp/v1/merchants?limit=100'));
      const listed = JSON.stringify(res.json());
      expect(res.statusCode).toBe(200);
      expect(listed).toContain(ownMerchant);
      expect(listed).not.toContain(ids.otherBankMerchant);
      expect(listed).not.toContain(ids.invisibleMerchant);
    });
  });

  describe('sandbox × live (docs/decisions/0015-demo-data-and-sandbox.md)', () => {
    const sandbox = DEMO.sandbox;
    const lookupAs = (key: { keyId: string; secret: string }, url: string) => {
      const timestamp = rfc3339Now();
      return stack.rest.inject({
        method: 'GET',
        url,
        headers: { 'x-api-key-id': key.keyId, 'x-timestamp': timestamp, 'x-signature': hmacHex(key.secret, `GET\n${url}\n${timestamp}\n`) },
      });
    };
    const sandboxBank = { keyId: sandbox.bank.lookupKeyId, secret: sandbox.bank.lookupSecret };
    const liveBank = { keyId: DEMO.bank.lookupKeyId, secret: DEMO.bank.lookupSecret };
    const bankCases: [string, { keyId: string; secret: string }, string, number][] = [
      ['the sandbox bank: its sandbox merchant', sandboxBank, `/api/psp/v1/merchants/${sandbox.merchantId}`, 200],
      ['the sandbox bank: its sandbox NMID', sandboxBank, `/api/psp/v1/merchants/by-nmid/${sandbox.outlets[0].nmid}`, 200],
      ['the sandbox bank: a live merchant', sandboxBank, `/api/psp/v1/merchants/${ownMerchant}`, 404],
      ['the sandbox bank: a live NMID', sandboxBank, `/api/psp/v1/merchants/by-nmid/${DEMO.outlets[0].nmid}`, 404],
      ['the live (tier-1) bank: the sandbox merchant', liveBank, `/api/psp/v1/merchants/${sandbox.merchantId}`, 404],
      ['the live bank: a sandbox NMID', liveBank, `/api/psp/v1/merchants/by-nmid/${sandbox.outlets[0].nmid}`, 404],
    ];
    it.each(bankCases)('%s → %i', async (_what, key, url, status) => {
      expect((await lookupAs(key, url)).statusCode).toBe(status);
    });

    it('a sandbox partner reads its sandbox merchant, not a live one; the live partner not the sandbox one', async () => {
      const token = await stack.rest.inject({
        method: 'POST',
        url: '/api/partner/v1/auth/token',
        payload: { credential_key: sandbox.partner.credential.credentialKey, credential_secret: sandbox.partner.credential.secret },
      });
      const sandboxPartner = { authorization: `Bearer ${token.json().access_token}` };
      const get = (headers: Record<string, string>, url: string) => stack.rest.inject({ method: 'GET', url, headers });
      expect((await get(sandboxPartner, `/api/partner/v1/merchants/${sandbox.merchantId}/transactions`)).statusCode).toBe(200);
      expect((await get(sandboxPartner, `/api/partner/v1/merchants/${ownMerchant}/transactions`)).statusCode).toBe(403);
      expect((await get(sandboxPartner, `/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants`)).statusCode).toBe(403);
      const live = { authorization: credentials.partnerAuthorization };
      expect((await get(live, `/api/partner/v1/merchants/${sandbox.merchantId}/scoring-summary`)).statusCode).toBe(403);
    });

    it('the sandbox owner reaches its sandbox outlets only; the live owner not those', async () => {
      const { authorization } = await sessionFor(stack, sandbox.owner.userId);
      const outlet = (auth: string, id: string) =>
        stack.rest.inject({ method: 'GET', url: `/merchant/poslite/catalog/outlets/${id}`, headers: { authorization: auth } });
      expect((await outlet(authorization, sandbox.outlets[0].id)).statusCode).toBe(200);
      expect((await outlet(authorization, ownOutlet)).statusCode).toBe(404);
      expect((await outlet(credentials.userAuthorization, sandbox.outlets[0].id)).statusCode).toBe(404);
    });
  });

  describe('user × merchant and outlet (POS surfaces)', () => {
    const foreign: [string, string, () => string, unknown?][] = [
      ['GET another merchant’s category', 'GET', () => `/catalog/categories/${ids.foreignCategory}`],
      ['PATCH another merchant’s category', 'PATCH', () => `/catalog/categories/${ids.foreignCategory}`, { name: 'Diambil alih' }],
      ['DELETE another merchant’s category', 'DELETE', () => `/catalog/categories/${ids.foreignCategory}`],
      ['GET another merchant’s product', 'GET', () => `/catalog/products/${ids.foreignProduct}`],
      ['PATCH another merchant’s product', 'PATCH', () => `/catalog/products/${ids.foreignProduct}`, { name: 'Diambil alih' }],
      ['DELETE another merchant’s product', 'DELETE', () => `/catalog/products/${ids.foreignProduct}`],
      ['GET another merchant’s outlet', 'GET', () => `/catalog/outlets/${otherMerchant.outlets[0].id}`],
      ['PATCH another merchant’s outlet', 'PATCH', () => `/catalog/outlets/${otherMerchant.outlets[0].id}`, { name: 'Diambil alih' }],
      ['DELETE another merchant’s outlet', 'DELETE', () => `/catalog/outlets/${otherMerchant.outlets[0].id}`],
    ];
    const surfaces = [
      ['app (demo owner)', 'pos-user', '/merchant/poslite'],
      ['service (X-Merchant-ID of the demo merchant)', 'pos-internal', '/poslite'],
    ] as const;
    it.each(
      surfaces.flatMap(([surface, kind, prefix]) =>
        foreign.map(([what, method, path, body]) => [surface, what, kind, prefix, method, path, body] as const),
      ),
    )('%s: %s → 404', async (_surface, _what, kind, prefix, method, path, body) => {
      const res = await stack.rest.inject(as(kind, method, `${prefix}${path()}`, body));
      expect([res.statusCode, res.json()]).toEqual([404, { error: expect.any(String), code: 'not_found' }]);
    });

    it('the other merchant’s objects are untouched and its own outlet is reachable', async () => {
      const still = await stack.rest.inject(
        as('pos-internal', 'GET', `/poslite/catalog/categories/${ids.foreignCategory}`, undefined, { 'x-merchant-id': otherMerchant.id }),
      );
      expect([still.statusCode, still.json().name]).toEqual([200, 'Kategori Lain']);
      expect((await stack.rest.inject(as('pos-user', 'GET', `/merchant/poslite/catalog/outlets/${ownOutlet}`))).statusCode).toBe(200);
    });
  });

  describe('credentials required', () => {
    const guarded = ALL_ROUTES.filter((route) => authKindOf(route) !== 'public');
    it.each(guarded.map((route) => [`${route.method} ${route.url}`, route] as const))(
      '%s without its credential → 401',
      async (_name, route) => {
        const res = await stack.rest.inject({ method: route.method as 'GET', url: pathOf(route) });
        expect([res.statusCode, res.json().code]).toEqual([401, 'unauthorized']);
      },
    );

    const internal = ALL_ROUTES.filter((route) => ['internal', 'pos-internal'].includes(authKindOf(route)));
    it.each(internal.map((route) => [`${route.method} ${route.url}`, route] as const))(
      '%s with a wrong internal key → 401',
      async (_name, route) => {
        const res = await stack.rest.inject({
          method: route.method as 'GET',
          url: pathOf(route),
          headers: { 'x-internal-api-key': `${stack.config.secrets.internalApiKey}x`, 'x-merchant-id': ownMerchant },
        });
        expect([res.statusCode, res.json().code]).toEqual([401, 'unauthorized']);
      },
    );
  });
});
