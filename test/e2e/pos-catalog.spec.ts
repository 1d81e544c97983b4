import { encodeActingPrincipal } from '@lib/auth/principal';
import { issueServiceToken } from '@lib/auth/service-token';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { buildStaticQris } from '@lib/domain/qris/qris-payload';
import { type PosActor, type Surface, posActor, posRequest } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const A = DEMO.merchantId;
const B = DEMO.otherMerchants[0].id;
const C = DEMO.otherMerchants[1].id;
const SURFACES: Surface[] = ['service', 'app'];

describe('Point of sale catalog over both surfaces (/poslite, /merchant/poslite)', () => {
  let stack: TestStack;
  let a: PosActor;
  let b: PosActor;
  let c: PosActor;
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await adminQuery<{ n: string }>(stack.database.adminUrl, sql, params))[0].n);

  beforeAll(async () => {
    stack = await startTestStack({}, { own: true }); // it switches reference data off and stops a subgraph
    [a, b, c] = await Promise.all([posActor(stack, A), posActor(stack, B), posActor(stack, C)]);
  });
  afterAll(() => stack.close());

  describe('authentication', () => {
    it('refuses a wrong or empty internal key (401) and a missing or malformed X-Merchant-ID (400)', async () => {
      for (const key of ['wrong', '']) {
        const res = await stack.rest.inject({
          method: 'GET',
          url: '/poslite/catalog/outlets',
          headers: { 'x-internal-api-key': key, 'x-merchant-id': A },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'unauthorized' });
      }
      for (const id of [undefined, 'not-a-uuid']) {
        const res = await stack.rest.inject({
          method: 'GET',
          url: '/poslite/catalog/outlets',
          headers: { 'x-internal-api-key': stack.config.secrets.internalApiKey, ...(id ? { 'x-merchant-id': id } : {}) },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('bad_request');
      }
    });

    it('refuses the app surface without a bearer token (401) and a user of no merchant (403)', async () => {
      expect((await stack.rest.inject({ method: 'GET', url: '/merchant/poslite/catalog/products' })).statusCode).toBe(401);
      const stranger = await posActor(stack, A);
      await adminQuery(
        stack.database.adminUrl,
        `update merchant.merchant_users set revoked_at = now() where user_id = (select user_id from merchant.merchant_users mu join merchant.users u on u.id = mu.user_id order by u.created_at desc limit 1)`,
      );
      const res = await posRequest(stack, 'app', stranger)('GET', '/catalog/products');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });

    it('a user principal cannot name another merchant in the subgraph (the merchantId argument is refused)', async () => {
      // The gateway directly, as the core adapter would assert a user of merchant A, asking for B.
      const token = await issueServiceToken('rest-adapters', stack.config.secrets.serviceTokenSecret);
      const res = await fetch(stack.gatewayUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'x-acting-principal': encodeActingPrincipal({ kind: 'user', userId: 'u', merchantId: A, role: 'owner', outletIds: [] }),
        },
        body: JSON.stringify({ query: `query { posProducts(merchantId: "${B}") { id } posOutlets(merchantId: "${B}") { id } }` }),
      });
      const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors.map((e) => e.extensions.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    });
  });

  describe.each(SURFACES)('outlets (%s surface)', (surface) => {
    it('lists, creates, gets, patches (nmid, qris payload) and soft-deletes; another merchant gets 404 on every route', async () => {
      const asA = posRequest(stack, surface, a);
      const asB = posRequest(stack, surface, b);
      const list = await asA('GET', '/catalog/outlets');
      expect(list.status).toBe(200);
      expect(list.body.outlets.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining(DEMO.outlets.map((o) => o.id)));

      const code = `POS-${surface}`;
      const created = await asA('POST', '/catalog/outlets', { code, name: 'Kios Baru', city: 'Jakarta', phone: '+6281234000111' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        merchant_id: A,
        code,
        name: 'Kios Baru',
        address_line: null,
        city: 'Jakarta',
        province: null,
        phone: '+6281234000111',
        nmid: null,
        qris_static_payload: null,
        is_active: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const id = created.body.id;
      expect((await asA('POST', '/catalog/outlets', { code, name: 'Twice' })).body.code).toBe('code_conflict');
      // Another merchant may use the same code.
      expect((await asB('POST', '/catalog/outlets', { code, name: 'Other' })).status).toBe(201);

      expect((await asA('GET', `/catalog/outlets/${id}`)).body.name).toBe('Kios Baru');
      const nmid = surface === 'service' ? 'ID2026112430001' : 'ID2026112430002';
      const correction = buildStaticQris({ nmid, merchantName: 'Kios Baru', merchantCity: 'Jakarta', mcc: '5814', criteria: 'UMI' });
      const patched = await asA('PATCH', `/catalog/outlets/${id}`, { nmid, qris_static_payload: correction, is_active: false });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ nmid, qris_static_payload: correction, is_active: false, name: 'Kios Baru' });
      // Another outlet's NMID: 409 nmid_taken, nothing changed.
      const taken = await asA('PATCH', `/catalog/outlets/${id}`, { nmid: DEMO.outlets[0].nmid });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('nmid_taken');
      const bad = await asA('PATCH', `/catalog/outlets/${id}`, { nmid: 'XX123', name: 'Renamed' });
      expect(bad.status).toBe(400);
      expect((await asA('GET', `/catalog/outlets/${id}`)).body).toMatchObject({ nmid, name: 'Kios Baru' });

      for (const [method, payload] of [['GET'], ['PATCH', { name: 'Hijack' }], ['DELETE']] as const) {
        const res = await asB(method, `/catalog/outlets/${id}`, payload);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
      expect((await asB('GET', '/catalog/outlets')).body.outlets.map((o: { id: string }) => o.id)).not.toContain(id);

      expect((await asA('DELETE', `/catalog/outlets/${id}`)).status).toBe(204);
      expect((await asA('GET', `/catalog/outlets/${id}`)).status).toBe(404);
      expect((await asA('DELETE', `/catalog/outlets/${id}`)).status).toBe(404);
      // A deleted outlet's code is free again.
      expect((await asA('POST', '/catalog/outlets', { code, name: 'Again' })).status).toBe(201);
    });
  });

  describe.each(SURFACES)('categories (%s surface)', (surface) => {
    it('creates, lists, gets, patches and soft-deletes; another merchant gets 404; bad input is 400 with no change', async () => {
      const asA = posRequest(stack, surface, a);
      const asB = posRequest(stack, surface, b);
      const parent = await asA('POST', '/catalog/categories', { name: `Induk ${surface}`, icon_name: 'store', sort_order: 5 });
      expect(parent.status).toBe(201);
      expect(parent.body).toMatchObject({
        merchant_id: A,
        name: `Induk ${surface}`,
        parent_id: null,
        sort_order: 5,
        icon_name: 'store',
        is_active: true,
      });
      const child = await asA('POST', '/catalog/categories', { name: `Anak ${surface}`, parent_id: parent.body.id });
      expect(child.body.parent_id).toBe(parent.body.id);
      // B cannot hang a category under A's.
      expect((await asB('POST', '/catalog/categories', { name: 'x', parent_id: parent.body.id })).status).toBe(400);
      // A cycle is refused and changes nothing.
      const cycle = await asA('PATCH', `/catalog/categories/${parent.body.id}`, { parent_id: child.body.id, name: 'Renamed' });
      expect(cycle.status).toBe(400);
      expect((await asA('GET', `/catalog/categories/${parent.body.id}`)).body).toMatchObject({ name: `Induk ${surface}`, parent_id: null });
      expect((await asA('POST', '/catalog/categories', { name: '' })).status).toBe(400);

      const patched = await asA('PATCH', `/catalog/categories/${child.body.id}`, { is_active: false, parent_id: '' });
      expect(patched.body).toMatchObject({ is_active: false, parent_id: null });
      const names = (await asA('GET', '/catalog/categories')).body.categories.map((x: { name: string }) => x.name);
      expect(names).toEqual(expect.arrayContaining(['Kopi', `Induk ${surface}`, `Anak ${surface}`]));

      for (const [method, payload] of [['GET'], ['PATCH', { name: 'Hijack' }], ['DELETE']] as const) {
        expect((await asB(method, `/catalog/categories/${parent.body.id}`, payload)).status).toBe(404);
      }
      expect((await asB('GET', '/catalog/categories')).body.categories).toEqual([]);
      expect((await asA('DELETE', `/catalog/categories/${child.body.id}`)).status).toBe(204);
      expect((await asA('GET', `/catalog/categories/${child.body.id}`)).status).toBe(404);
    });
  });

  it('answers curated defaults by business type, OTHER for an unknown one', async () => {
    for (const surface of SURFACES) {
      const res = await posRequest(stack, surface, a)('GET', '/catalog/categories/defaults?business_type_name=Warung%20Makan');
      expect(res.status).toBe(200);
      expect(res.body.business_type_name).toBe('Warung Makan');
      expect(res.body.categories[0]).toEqual({ name: 'Makanan', icon_name: 'restaurant', sort_order: 1 });
    }
    const unknown = await posRequest(stack, 'service', a)('GET', '/catalog/categories/defaults?business_type_name=Tidak%20Ada');
    expect(unknown.body.categories.map((x: { name: string }) => x.name)).toEqual(['Produk', 'Layanan', 'Lainnya']);
    expect((await posRequest(stack, 'service', a)('GET', '/catalog/categories/defaults')).status).toBe(400);
  });

  it('provisions once under concurrency, then returns the existing categories without inserting', async () => {
    const asC = posRequest(stack, 'app', c);
    const body = {
      selected: [{ name: 'Sembako', icon_name: 'grocery' }, { name: 'Minuman' }],
      custom: [{ name: 'Rokok' }, { name: 'sembako' }],
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => posRequest(stack, i % 2 ? 'app' : 'service', c)('POST', '/catalog/categories/provision', body)),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.categories.map((x: { name: string }) => x.name)).toEqual(['Sembako', 'Minuman', 'Rokok']);
    }
    expect(await count(`select count(*) as n from catalog.categories where merchant_id = $1`, [C])).toBe(3);
    const again = await asC('POST', '/catalog/categories/provision', { selected: [{ name: 'Lain' }], custom: [] });
    expect(again.body.categories).toHaveLength(3);
    expect(await count(`select count(*) as n from catalog.categories where merchant_id = $1`, [C])).toBe(3);
    expect((await asC('POST', '/catalog/categories/provision', { selected: 'x' })).status).toBe(400);
  });

  describe.each(SURFACES)('products (%s surface)', (surface) => {
    it('creates with a default variant, lists and filters, gets, patches the barcode by its rule, soft-deletes; other merchants get 404', async () => {
      const asA = posRequest(stack, surface, a);
      const asB = posRequest(stack, surface, b);
      const category = (await asA('POST', '/catalog/categories', { name: `Produk ${surface}` })).body.id;
      const created = await asA('POST', '/catalog/products', {
        name: `Kopi 100%_${surface}`,
        sku: `KOPI-${surface}`,
        category_id: category,
        sell_price_amount: 15000,
        cost_price_amount: 9000,
        tax_rate_bps: 1100,
        track_stock: true,
        barcode: `899${surface}001`,
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        merchant_id: A,
        category_id: category,
        name: `Kopi 100%_${surface}`,
        sku: `KOPI-${surface}`,
        product_type: 'good',
        sell_price_amount: 15000,
        cost_price_amount: 9000,
        unit_label: null,
        description: null,
        image_url: null,
        tax_rate_bps: 1100,
        track_stock: true,
        is_active: true,
        sort_order: 0,
        barcode: `899${surface}001`,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const id = created.body.id;
      expect(await count(`select count(*) as n from catalog.variants where product_id = $1 and is_default`, [id])).toBe(1);

      const plain = await asA('POST', '/catalog/products', { name: `Teh ${surface}`, sku: `TEH-${surface}` });
      expect(plain.body.barcode).toBeNull();
      expect((await asA('POST', '/catalog/products', { name: 'x', sku: `KOPI-${surface}` })).body.code).toBe('sku_conflict');
      expect((await asA('POST', '/catalog/products', { name: 'x', sku: `OTHER-${surface}`, barcode: `899${surface}001` })).body.code).toBe(
        'barcode_conflict',
      );
      // Barcodes are unique over all merchants; SKUs only per merchant.
      expect((await asB('POST', '/catalog/products', { name: 'x', sku: `B-${surface}`, barcode: `899${surface}001` })).body.code).toBe(
        'barcode_conflict',
      );
      expect((await asB('POST', '/catalog/products', { name: 'x', sku: `KOPI-${surface}` })).status).toBe(201);
      expect((await asA('POST', '/catalog/products', { name: 'no sku' })).status).toBe(400);
      expect((await asA('POST', '/catalog/products', { name: 'x', sku: 'y', sell_price_amount: '100' })).status).toBe(400);

      const byQ = await asA('GET', `/catalog/products?q=${encodeURIComponent(`100%_${surface}`)}`);
      expect(byQ.body.products.map((p: { id: string }) => p.id)).toEqual([id]);
      // LIKE wildcards in q match themselves: "1_0" is not "100".
      expect((await asA('GET', `/catalog/products?q=${encodeURIComponent('1_0')}`)).body.products).toEqual([]);
      expect((await asA('GET', `/catalog/products?q=kopi-${surface}`)).body.products.map((p: { id: string }) => p.id)).toEqual([id]);
      expect((await asA('GET', `/catalog/products?category_id=${category}`)).body.products).toHaveLength(1);
      expect((await asA('GET', '/catalog/products?limit=201')).status).toBe(400);
      expect((await asA('GET', '/catalog/products?limit=1')).body.products).toHaveLength(1);

      expect((await asA('PATCH', `/catalog/products/${id}`, { barcode: null, name: `Kopi Susu ${surface}` })).body).toMatchObject({
        barcode: `899${surface}001`,
        name: `Kopi Susu ${surface}`,
      });
      expect((await asA('PATCH', `/catalog/products/${plain.body.id}`, { barcode: `899${surface}001` })).body.code).toBe(
        'barcode_conflict',
      );
      expect((await asA('PATCH', `/catalog/products/${id}`, { barcode: '' })).body.barcode).toBeNull();
      expect((await asA('PATCH', `/catalog/products/${plain.body.id}`, { barcode: `899${surface}001` })).body.barcode).toBe(
        `899${surface}001`,
      );
      expect((await asA('GET', `/catalog/products/${plain.body.id}`)).body.barcode).toBe(`899${surface}001`);
      expect((await asA('PATCH', `/catalog/products/${id}`, { is_active: false })).body.is_active).toBe(false);
      expect(
        (await asA('GET', `/catalog/products?active=false&q=Kopi%20Susu%20${surface}`)).body.products.map((p: { id: string }) => p.id),
      ).toEqual([id]);
      expect((await asA('GET', `/catalog/products?q=Kopi%20Susu%20${surface}`)).body.products).toEqual([]);

      for (const [method, payload] of [['GET'], ['PATCH', { name: 'Hijack' }], ['DELETE']] as const) {
        expect((await asB(method, `/catalog/products/${id}`, payload)).status).toBe(404);
      }
      expect((await asA('DELETE', `/catalog/products/${plain.body.id}`)).status).toBe(204);
      expect((await asA('GET', `/catalog/products/${plain.body.id}`)).status).toBe(404);
      // The deleted product's barcode and SKU are free again.
      expect((await asA('POST', '/catalog/products', { name: 'x', sku: `TEH-${surface}`, barcode: `899${surface}001` })).status).toBe(201);
    });
  });

  it('answers 503 reference_db_unavailable when the reference data holds no business types', async () => {
    await adminQuery(stack.database.adminUrl, 'update merchant.business_types set is_active = false');
    const res = await posRequest(stack, 'app', a)('GET', '/catalog/categories/defaults?business_type_name=Warung%20Makan');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'reference_db_unavailable' });
  });

  it('answers 503 reference_db_unavailable when the reference query fails', async () => {
    await stack.subgraphs.merchant.app.close();
    const res = await posRequest(stack, 'service', a)('GET', '/catalog/categories/defaults?business_type_name=Warung%20Makan');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('reference_db_unavailable');
    await stack.restartSubgraph('merchant');
  });
});
