import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { type PosActor, type Surface, posActor, posRequest } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const A = DEMO.merchantId;
const B = DEMO.otherMerchants[0].id;
const OUTLET = DEMO.outlets[0].id;
const SURFACES: Surface[] = ['service', 'app'];

describe('Point of sale sync (pull, push) and sales orders', () => {
  let stack: TestStack;
  let a: PosActor;
  let b: PosActor;
  let tracked: { id: string; variant: string };
  let untracked: { id: string; variant: string };
  const q = <T extends object = Record<string, string>>(sql: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, sql, params);
  const stockOf = async (variant: string) =>
    Number(
      (await q(`select quantity from catalog.product_stock where variant_id = $1 and outlet_id = $2`, [variant, OUTLET]))[0]?.quantity ?? 0,
    );

  const order = (overrides: Record<string, unknown> = {}) => ({
    outlet_id: OUTLET,
    status: 'completed',
    source: 'offline',
    transacted_at: Date.parse('2026-11-24T10:00:00+07:00'),
    items: [
      { line_no: 1, variant_id: tracked.variant, quantity: 2, unit_price_amount: 15000, line_total_amount: 30000 },
      { line_no: 2, variant_id: untracked.variant, quantity: 1, unit_price_amount: 5000, line_total_amount: 5000 },
    ],
    payments: [{ method: 'cash', amount: 40000 }],
    subtotal_amount: 35000,
    discount_amount: 0,
    tax_amount: 0,
    total_amount: 35000,
    paid_amount: 40000,
    change_amount: 5000,
    ...overrides,
  });
  const item = (entity_type: string, op: string, payload: Record<string, unknown>, entity_id = randomUUID()) => ({
    outbox_id: randomUUID(),
    entity_type,
    entity_id,
    op,
    payload,
  });

  beforeAll(async () => {
    stack = await startTestStack();
    [a, b] = await Promise.all([posActor(stack, A), posActor(stack, B)]);
    const asA = posRequest(stack, 'service', a);
    const p1 = (await asA('POST', '/catalog/products', { name: 'Kopi', sku: 'S-KOPI', sell_price_amount: 15000, track_stock: true })).body;
    const p2 = (await asA('POST', '/catalog/products', { name: 'Es Batu', sku: 'S-ES', sell_price_amount: 5000 })).body;
    const variants = await q(`select product_id, id from catalog.variants where product_id in ($1, $2)`, [p1.id, p2.id]);
    const variantOf = (id: string) => variants.find((v) => v.product_id === id)!.id;
    tracked = { id: p1.id, variant: variantOf(p1.id) };
    untracked = { id: p2.id, variant: variantOf(p2.id) };
  });
  afterAll(() => stack.close());

  describe.each(SURFACES)('push and orders (%s surface)', (surface) => {
    it('accepts a sales order: receipt number, stock movements, detail; voids it once (stock returns); other merchants see nothing', async () => {
      const asA = posRequest(stack, surface, a);
      const asB = posRequest(stack, surface, b);
      const before = await stockOf(tracked.variant);
      const orderId = randomUUID();
      const push = item('sales_order', 'create', order(), orderId);
      const res = await asA('POST', '/sync/push', { items: [push] });
      expect(res).toEqual({ status: 200, body: { accepted: [push.outbox_id], rejected: {} } });
      expect(await stockOf(tracked.variant)).toBe(before - 2);
      expect(await stockOf(untracked.variant)).toBe(0);
      const movements = await q(`select reason, quantity_delta from catalog.stock_movements where sales_order_id = $1`, [orderId]);
      expect(movements).toEqual([{ reason: 'sale', quantity_delta: '-2' }]);

      const detail = await asA('GET', `/sales/orders/${orderId}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        id: orderId,
        merchant_id: A,
        outlet_id: OUTLET,
        status: 'completed',
        source: 'offline',
        transacted_at: '2026-11-24T11:00:00+08:00', // the core API's times are Asia/Makassar
        subtotal_amount: 35000,
        total_amount: 35000,
        paid_amount: 40000,
        change_amount: 5000,
        voided_at: null,
      });
      expect(detail.body.receipt_number).toMatch(/^20261124-\d{6}$/);
      expect(detail.body.items).toEqual([
        {
          id: expect.any(String),
          line_no: 1,
          variant_id: tracked.variant,
          sku_snapshot: 'S-KOPI',
          name_snapshot: 'Kopi',
          quantity: 2,
          unit_price_amount: 15000,
          line_total_amount: 30000,
        },
        {
          id: expect.any(String),
          line_no: 2,
          variant_id: untracked.variant,
          sku_snapshot: 'S-ES',
          name_snapshot: 'Es Batu',
          quantity: 1,
          unit_price_amount: 5000,
          line_total_amount: 5000,
        },
      ]);
      expect(detail.body.payments).toEqual([{ id: expect.any(String), method: 'cash', amount: 40000 }]);

      const list = await asA('GET', `/sales/orders?outlet_id=${OUTLET}&date_from=2026-11-24&date_to=2026-11-24&status=completed`);
      expect(list.body.orders.map((o: { id: string }) => o.id)).toContain(orderId);
      expect(list.body.orders[0].items).toBeUndefined();
      expect((await asA('GET', '/sales/orders?date_from=2026-11-25')).body.orders.map((o: { id: string }) => o.id)).not.toContain(orderId);

      for (const [method, path, payload] of [
        ['GET', `/sales/orders/${orderId}`],
        ['PATCH', `/sales/orders/${orderId}`, { action: 'void' }],
      ] as const) {
        expect((await asB(method, path, payload)).status).toBe(404);
      }
      expect((await asB('GET', '/sales/orders')).body.orders.map((o: { id: string }) => o.id)).not.toContain(orderId);

      const refund = await asA('PATCH', `/sales/orders/${orderId}`, { action: 'refund' });
      expect(refund.status).toBe(400);
      expect(refund.body.code).toBe('bad_request');
      const voided = await asA('PATCH', `/sales/orders/${orderId}`, { action: 'void', void_reason: 'salah input' });
      expect(voided.status).toBe(200);
      expect(voided.body).toMatchObject({ status: 'voided', voided_at: expect.any(String) });
      expect(await stockOf(tracked.variant)).toBe(before);
      const again = await asA('PATCH', `/sales/orders/${orderId}`, { action: 'void' });
      expect(again.status).toBe(500);
      expect(again.body).toEqual({ code: 'internal_error', error: 'the sales order is already voided' });
      expect(await stockOf(tracked.variant)).toBe(before);
    });

    it('rejects items with wrong arithmetic or unknown references one by one and applies the rest', async () => {
      const asA = posRequest(stack, surface, a);
      const bad = [
        item(
          'sales_order',
          'create',
          order({ items: [{ line_no: 1, variant_id: tracked.variant, quantity: 2, unit_price_amount: 15000, line_total_amount: 29000 }] }),
        ),
        item('sales_order', 'create', order({ subtotal_amount: 36000 })),
        item('sales_order', 'create', order({ total_amount: 34000 })),
        item('sales_order', 'create', order({ paid_amount: 30000, payments: [{ method: 'cash', amount: 30000 }], change_amount: 0 })),
        item('sales_order', 'create', order({ change_amount: 4000 })),
        item('sales_order', 'create', order({ paid_amount: 45000 })),
        item(
          'sales_order',
          'create',
          order({ items: [{ line_no: 1, variant_id: randomUUID(), quantity: 1, unit_price_amount: 35000, line_total_amount: 35000 }] }),
        ),
        item('stock_movement', 'delete', { outlet_id: OUTLET }),
        item('customer', 'upsert', { phone: '0812' }),
      ];
      const good = item(
        'sales_order',
        'create',
        order({ discount_amount: 5000, tax_amount: 3000, total_amount: 33000, change_amount: 7000 }),
      );
      const ordersBefore = Number((await q(`select count(*) as n from catalog.sales_orders`))[0].n);
      const res = await asA('POST', '/sync/push', { items: [...bad, good] });
      expect(res.status).toBe(200);
      expect(res.body.accepted).toEqual([good.outbox_id]);
      expect(Object.keys(res.body.rejected).sort()).toEqual(bad.map((i) => i.outbox_id).sort());
      expect(res.body.rejected[bad[0].outbox_id]).toMatch(/line_total_amount/);
      expect(res.body.rejected[bad[3].outbox_id]).toMatch(/less than total_amount/);
      expect(res.body.rejected[bad[6].outbox_id]).toMatch(/unknown variant/);
      expect(Number((await q(`select count(*) as n from catalog.sales_orders`))[0].n)).toBe(ordersBefore + 1);
      expect(
        Number(
          (await q(`select count(*) as n from catalog.sync_receipts where outbox_id = any($1::uuid[])`, [bad.map((i) => i.outbox_id)]))[0]
            .n,
        ),
      ).toBe(0);
    });

    it('refuses a batch over 500 items or with malformed items (400) and stores nothing', async () => {
      const asA = posRequest(stack, surface, a);
      const receipts = Number((await q(`select count(*) as n from catalog.sync_receipts`))[0].n);
      const many = Array.from({ length: 501 }, () => item('customer', 'upsert', { name: 'x' }));
      expect((await asA('POST', '/sync/push', { items: many })).status).toBe(400);
      expect(
        (await asA('POST', '/sync/push', { items: [{ ...item('customer', 'upsert', { name: 'x' }), outbox_id: 'nope' }] })).status,
      ).toBe(400);
      expect((await asA('POST', '/sync/push', { items: [item('invoice', 'create', {})] })).status).toBe(400);
      expect(Number((await q(`select count(*) as n from catalog.sync_receipts`))[0].n)).toBe(receipts);
    });
  });

  it('is idempotent by outbox_id under concurrent duplicate batches: each item applied once', async () => {
    const asA = posRequest(stack, 'service', a);
    const before = await stockOf(tracked.variant);
    const batch = [
      item('sales_order', 'create', order()),
      item('stock_movement', 'create', {
        outlet_id: OUTLET,
        variant_id: tracked.variant,
        quantity_delta: 10,
        reason: 'restock',
        occurred_at: Date.now(),
      }),
      item('customer', 'upsert', { name: 'Bu Ani', phone: '08123' }),
    ];
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        posRequest(stack, i % 2 ? 'app' : 'service', a)('POST', '/sync/push', { items: i % 3 ? batch : [...batch].reverse() }),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.accepted.sort()).toEqual(batch.map((i) => i.outbox_id).sort());
    }
    expect(Number((await q(`select count(*) as n from catalog.sales_orders where id = $1`, [batch[0].entity_id]))[0].n)).toBe(1);
    expect(Number((await q(`select count(*) as n from catalog.stock_movements where id = $1`, [batch[1].entity_id]))[0].n)).toBe(1);
    expect(await stockOf(tracked.variant)).toBe(before - 2 + 10);
    // Another merchant replaying the same outbox ids is refused, and cannot touch A's customer.
    const asB = await posRequest(stack, 'service', b)('POST', '/sync/push', {
      items: [batch[2], item('customer', 'upsert', { name: 'Hijack' }, batch[2].entity_id)],
    });
    expect(Object.values(asB.body.rejected)).toEqual(['outbox_id already used', 'customer not found']);
    expect((await q(`select name from catalog.customers where id = $1`, [batch[2].entity_id]))[0].name).toBe('Bu Ani');
    const deleted = await asA('POST', '/sync/push', { items: [item('customer', 'delete', {}, batch[2].entity_id)] });
    expect(deleted.body.rejected).toEqual({});
  });

  it('accepts a push of the documented maximum: 500 sales orders of 10 lines and 3 payments each (about 1.4 MB)', async () => {
    const asA = posRequest(stack, 'app', a);
    const variants = [tracked.variant, untracked.variant];
    for (let n = 0; n < 8; n++) {
      const created = await asA('POST', '/catalog/products', {
        name: `Menu ${n}`,
        sku: `MAX-${n}`,
        sell_price_amount: 12500,
        track_stock: n % 2 === 0,
      });
      expect(created.status).toBe(201);
      variants.push((await q(`select id from catalog.variants where product_id = $1`, [created.body.id]))[0].id);
    }
    const outlet = randomUUID();
    const bigOrder = (n: number) => {
      const lines = variants.map((variant_id, i) => {
        const quantity = 1 + ((n + i) % 3);
        return {
          line_no: i + 1,
          variant_id,
          sku_snapshot: `SKU-${String(i).padStart(4, '0')}-${n}`,
          name_snapshot: `Kopi Susu Gula Aren Ukuran Besar Tanpa Es No. ${i}`,
          quantity,
          unit_price_amount: 12500,
          line_total_amount: quantity * 12500,
        };
      });
      const total = lines.reduce((sum, l) => sum + l.line_total_amount, 0);
      return order({
        outlet_id: outlet,
        transacted_at: Date.parse('2026-11-24T10:00:00+07:00') + n * 60_000,
        items: lines,
        payments: [
          { method: 'cash', amount: 50_000 },
          { method: 'qris', amount: total - 60_000 },
          { method: 'debit_card', amount: 20_000 },
        ],
        subtotal_amount: total,
        total_amount: total,
        paid_amount: total + 10_000,
        change_amount: 10_000,
      });
    };
    // 500 two-line orders (about 400 kB) once failed as 500 internal_error: the gateway refused the body.
    const small = Array.from({ length: 500 }, () => item('sales_order', 'create', order({ outlet_id: outlet })));
    const first = await asA('POST', '/sync/push', { items: small });
    expect([first.status, first.body.accepted?.length]).toEqual([200, 500]);
    const items = Array.from({ length: 500 }, (_, n) => item('sales_order', 'create', bigOrder(n)));
    expect(JSON.stringify({ items }).length).toBeGreaterThan(1.25 * 1024 * 1024);
    const res = await asA('POST', '/sync/push', { items });
    expect(res.status).toBe(200);
    expect(res.body.rejected).toEqual({});
    expect(res.body.accepted).toHaveLength(500);
    expect(Number((await q(`select count(*) as n from catalog.sales_orders where outlet_id = $1`, [outlet]))[0].n)).toBe(1000);
  }, 120_000);

  it('numbers receipts per outlet without gaps or repeats under concurrent pushes', async () => {
    const outlet = randomUUID();
    const pushes = Array.from({ length: 8 }, () => item('sales_order', 'create', order({ outlet_id: outlet })));
    await Promise.all(pushes.map((p, i) => posRequest(stack, i % 2 ? 'app' : 'service', a)('POST', '/sync/push', { items: [p] })));
    const numbers = (await q(`select receipt_number from catalog.sales_orders where outlet_id = $1 order by receipt_number`, [outlet])).map(
      (r) => r.receipt_number,
    );
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => `20261124-${String(i + 1).padStart(6, '0')}`));
  });

  it('dates a receipt number by the sale in Jakarta: the last and first second of a Jakarta day fall on two days', async () => {
    const outlet = randomUUID();
    const at = (iso: string) => item('sales_order', 'create', order({ outlet_id: outlet, transacted_at: Date.parse(iso) }));
    const pushed = [at('2026-11-24T23:59:59+07:00'), at('2026-11-25T00:00:00+07:00')];
    const res = await posRequest(stack, 'app', a)('POST', '/sync/push', { items: pushed });
    expect([res.status, res.body.accepted]).toEqual([200, pushed.map((p) => p.outbox_id)]);
    const numbers = await q(`select id, receipt_number from catalog.sales_orders where outlet_id = $1`, [outlet]);
    expect(Object.fromEntries(numbers.map((r) => [r.id, r.receipt_number]))).toEqual({
      [pushed[0].entity_id]: '20261124-000001',
      [pushed[1].entity_id]: '20261125-000002',
    });
  });

  it('lists orders with limits: default 50, above 200 is 400, bad dates are 400', async () => {
    const asA = posRequest(stack, 'app', a);
    expect((await asA('GET', '/sales/orders?limit=201')).status).toBe(400);
    expect((await asA('GET', '/sales/orders?date_from=24-11-2026')).status).toBe(400);
    expect((await asA('GET', '/sales/orders?date_from=2026-11-25&date_to=2026-11-24')).status).toBe(400);
    expect((await asA('GET', '/sales/orders?status=lost')).status).toBe(400);
    expect((await asA('GET', '/sales/orders?limit=2')).body.orders).toHaveLength(2);
  });

  describe.each(SURFACES)('pull (%s surface)', (surface) => {
    it('pages every entity with epoch-millisecond times and 0/1 booleans, deleted rows included, only the merchant’s own', async () => {
      const asA = posRequest(stack, surface, a);
      const asB = posRequest(stack, surface, b);
      const gone = (await asA('POST', '/catalog/products', { name: `Hapus ${surface}`, sku: `DEL-${surface}` })).body.id;
      await asA('DELETE', `/catalog/products/${gone}`);
      for (const entity of ['outlets', 'categories', 'products', 'variants', 'product_stock', 'customers']) {
        // Rows just written may wait for another writer of the same schema that is still open.
        let res = await asA('GET', `/sync/pull?entity=${entity}&since=&limit=200`);
        for (let waited = 0; res.body.rows?.length === 0 && waited < 10_000; waited += 100) {
          await new Promise((r) => setTimeout(r, 100));
          res = await asA('GET', `/sync/pull?entity=${entity}&since=&limit=200`);
        }
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ entity, rows: expect.any(Array), server_time: expect.any(Number), has_more: false });
        expect(res.body.rows.length).toBeGreaterThan(0);
        for (const row of res.body.rows) {
          expect(row.merchant_id).toBe(A);
          expect(typeof row.updated_at).toBe('number');
          expect(row.updated_at).toBeLessThanOrEqual(res.body.server_time);
          if ('is_active' in row) expect([0, 1]).toContain(row.is_active);
        }
        const empty = await asA('GET', `/sync/pull?entity=${entity}&since=${res.body.server_time}`);
        expect(empty.body.rows).toEqual([]);
        expect(empty.body.server_time).toBeGreaterThanOrEqual(res.body.server_time);
        expect(
          (await asB('GET', `/sync/pull?entity=${entity}`)).body.rows.filter((r: { merchant_id: string }) => r.merchant_id !== B),
        ).toEqual([]);
      }
      // The deletion, too, may wait for another open writer before it is safe to deliver.
      let deleted: { id: string; deleted_at: number | null } | undefined;
      for (let waited = 0; !deleted?.deleted_at && waited < 10_000; waited += 100) {
        if (waited > 0) await new Promise((r) => setTimeout(r, 100));
        deleted = ((await asA('GET', '/sync/pull?entity=products')).body.rows as { id: string; deleted_at: number | null }[]).find(
          (p) => p.id === gone,
        );
      }
      expect(deleted).toMatchObject({ deleted_at: expect.any(Number), track_stock: 0 });
      expect((await asA('GET', '/sync/pull?entity=orders')).status).toBe(400);
      expect((await asA('GET', '/sync/pull?entity=products&limit=201')).status).toBe(400);
      expect((await asA('GET', '/sync/pull?entity=products&since=-1')).status).toBe(400);
    });
  });

  it('never skips or repeats a row version while writers commit in another order than they started (server_time in epoch ms)', async () => {
    const pull = posRequest(stack, 'service', a);
    for (const n of [1, 2, 3, 4])
      expect((await pull('POST', '/catalog/products', { name: `Sync ${n}`, sku: `SYNC-${n}` })).status).toBe(201);
    const ids = (await q(`select id from catalog.products where merchant_id = $1 and deleted_at is null order by id limit 6`, [A])).map(
      (r) => r.id,
    );
    expect(ids.length).toBeGreaterThanOrEqual(4);
    const device = new Map<string, string>();
    const delivered: string[] = [];
    let since = 0;
    const drain = async (limit: number) => {
      for (let more = true; more;) {
        const res = await pull('GET', `/sync/pull?entity=products&since=${since}&limit=${limit}`);
        for (const row of res.body.rows) {
          delivered.push(`${row.id}:${row.name}`);
          device.set(row.id, row.name);
        }
        since = res.body.server_time;
        more = res.body.has_more;
      }
    };
    await drain(2);

    const writers = await Promise.all(
      [0, 1, 2].map(async () => {
        const client = new Client({ connectionString: stack.database.adminUrl });
        await client.connect();
        return client;
      }),
    );
    try {
      // Three rounds: the first writer to start commits last, a middle one first; the device pulls in between.
      for (let round = 0; round < 3; round++) {
        for (const [w, client] of writers.entries()) {
          await client.query('begin');
          await client.query(`update catalog.products set name = $1 where id = $2`, [`r${round}-w${w}`, ids[w]]);
        }
        await writers[1].query('commit');
        await drain(1);
        // Writer 1 committed, but writer 0 (which wrote first) is still open: nothing written since its first write
        // is delivered yet, and server_time stays before that write.
        expect(device.get(ids[1])).not.toBe(`r${round}-w1`);
        expect(Math.abs(since - Date.now())).toBeLessThan(60_000);
        await writers[2].query('commit');
        await drain(1);
        await writers[0].query('commit');
        // Another open writer of the catalog may delay delivery, never skip it.
        for (let waited = 0; [0, 1, 2].some((w) => device.get(ids[w]) !== `r${round}-w${w}`) && waited < 10_000; waited += 50) {
          await drain(1);
          await new Promise((r) => setTimeout(r, 50));
        }
        for (const w of [0, 1, 2]) expect(device.get(ids[w])).toBe(`r${round}-w${w}`);
      }
      // Concurrent random writers and pulls: afterwards the device equals the database, each version delivered once.
      const work = Array.from({ length: 30 }, (_, i) => async () => {
        const client = writers[i % 3];
        await client.query('begin');
        await client.query(`update catalog.products set name = $1 where id = $2`, [`x${i}`, ids[i % ids.length]]);
        await new Promise((r) => setTimeout(r, Math.random() * 15));
        await client.query('commit');
      });
      const chains = [0, 1, 2].map(async (w) => {
        for (let i = w; i < work.length; i += 3) await work[i]();
      });
      const puller = (async () => {
        for (let i = 0; i < 15; i++) {
          await drain(3);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await Promise.all([...chains, puller]);
      const truthNow = await q(`select id, name from catalog.products where merchant_id = $1`, [A]);
      for (let waited = 0; truthNow.some((r) => device.get(r.id) !== r.name) && waited < 10_000; waited += 50) {
        await drain(3);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await Promise.all(writers.map((c) => c.end()));
    }
    const truth = await q(`select id, name from catalog.products where merchant_id = $1`, [A]);
    for (const row of truth) expect(device.get(row.id)).toBe(row.name);
    // A row version is (id, name) here, names being unique per write.
    expect(new Set(delivered).size).toBe(delivered.length);
  });

  describe('epoch milliseconds (core-api.md §4 Sync)', () => {
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    /** Pulls `entity` from `since` until `found` holds for the rows (writes of another open transaction may delay them). */
    const pullUntil = async (
      asA: ReturnType<typeof posRequest>,
      entity: string,
      since: number,
      found: (rows: Record<string, unknown>[]) => boolean,
    ) => {
      let res = await asA('GET', `/sync/pull?entity=${entity}&since=${since}&limit=200`);
      for (let waited = 0; res.status === 200 && !found(res.body.rows) && waited < 10_000; waited += 100) {
        await pause(100);
        res = await asA('GET', `/sync/pull?entity=${entity}&since=${since}&limit=200`);
      }
      return res;
    };

    it('a device that seeds since from its own clock, or from a row’s updated_at, receives every later write of every entity', async () => {
      const asA = posRequest(stack, 'app', a);
      const clock = Date.now();
      await pause(5);
      const outlet = await asA('POST', '/catalog/outlets', { code: `MS-${clock}`, name: 'Outlet ms' });
      const category = await asA('POST', '/catalog/categories', { name: `Kategori ${clock}` });
      const product = await asA('POST', '/catalog/products', { name: 'Teh ms', sku: `MS-${clock}`, track_stock: true });
      expect([outlet.status, category.status, product.status]).toEqual([201, 201, 201]);
      const variant = (await q(`select id from catalog.variants where product_id = $1`, [product.body.id]))[0].id;
      const customer = randomUUID();
      const pushed = await asA('POST', '/sync/push', {
        items: [
          item('stock_movement', 'create', {
            outlet_id: OUTLET,
            variant_id: variant,
            quantity_delta: 5,
            reason: 'restock',
            occurred_at: Date.now(),
          }),
          item('customer', 'upsert', { name: 'Pak Milidetik' }, customer),
        ],
      });
      expect(pushed.body.rejected).toEqual({});
      const expected: Record<string, (row: Record<string, unknown>) => boolean> = {
        outlets: (row) => row.id === outlet.body.id,
        categories: (row) => row.id === category.body.id,
        products: (row) => row.id === product.body.id,
        variants: (row) => row.id === variant,
        product_stock: (row) => row.variant_id === variant && row.quantity === 5,
        customers: (row) => row.id === customer,
      };
      const seen: Record<string, Record<string, unknown>> = {};
      for (const [entity, isIt] of Object.entries(expected)) {
        const res = await pullUntil(asA, entity, clock, (rows) => rows.some(isIt));
        expect(res.status).toBe(200);
        expect(res.body.rows.find(isIt)).toBeDefined();
        // server_time is a time on the same clock, not a counter: after the device's clock reading, not in the future.
        expect(res.body.server_time).toBeGreaterThan(clock);
        expect(res.body.server_time).toBeLessThanOrEqual(Date.now());
        for (const row of res.body.rows as Record<string, number>[]) {
          expect(row.updated_at).toBeGreaterThan(clock);
          expect(row.updated_at).toBeLessThanOrEqual(res.body.server_time);
        }
        seen[entity] = res.body.rows.find(isIt);
      }

      // Since seeded from a row's updated_at: that row is not sent again, a later write is.
      const from = seen.products.updated_at as number;
      await pause(5);
      expect((await asA('PATCH', `/catalog/products/${tracked.id}`, { description: `after ${from}` })).status).toBe(200);
      const later = await pullUntil(asA, 'products', from, (rows) => rows.some((r) => r.id === tracked.id));
      const ids = (later.body.rows as { id: string }[]).map((r) => r.id);
      expect(ids).toContain(tracked.id);
      expect(ids).not.toContain(product.body.id);
      // A clock ahead of the server's: nothing is lost, server_time never runs ahead of the server's clock.
      const ahead = await asA('GET', `/sync/pull?entity=products&since=${Date.now() + 3_600_000}`);
      expect(ahead.body.rows).toEqual([]);
      expect(ahead.body.server_time).toBeLessThanOrEqual(Date.now());
    });

    it('pages end on a millisecond boundary: rows written in one statement are each delivered once', async () => {
      const asA = posRequest(stack, 'service', a);
      const clock = Date.now();
      await pause(5);
      const written = (
        await q<{ id: string; ms: string }>(
          `insert into catalog.customers (id, merchant_id, name, created_at, updated_at)
           select gen_random_uuid(), $1, 'Massal ' || n, now(), now() from generate_series(1, 150) n
           returning id, floor(extract(epoch from updated_at) * 1000)::text as ms`,
          [A],
        )
      ).map((r) => r.id);
      const delivered: string[] = [];
      let since = clock;
      for (let pulls = 0, more = true; (more || delivered.length < written.length) && pulls < 500; pulls++) {
        const res = await asA('GET', `/sync/pull?entity=customers&since=${since}&limit=7`);
        expect(res.status).toBe(200);
        const rows = res.body.rows as { id: string; updated_at: number }[];
        // A page holds at most `limit` rows unless they all share one millisecond.
        if (rows.length > 7) expect(new Set(rows.map((r) => r.updated_at)).size).toBe(1);
        delivered.push(...rows.map((r) => r.id));
        expect(res.body.server_time).toBeGreaterThanOrEqual(since);
        since = res.body.server_time;
        more = res.body.has_more;
        if (!more && delivered.length < written.length) await pause(20);
      }
      expect(delivered.filter((id) => written.includes(id)).sort()).toEqual([...written].sort());
      expect(new Set(delivered).size).toBe(delivered.length);
    });
  });
});
