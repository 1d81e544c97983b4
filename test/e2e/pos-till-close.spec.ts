import { randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { ZonedCalendar, addDays } from '@lib/time/zoned-time';
import { postDemoBankEvent } from '../support/bank-events';
import { eventually } from '../support/eventually';
import { type HttpRecorder, startMessageProviders } from '../support/http-recorder';
import { type PosActor, type Surface, posActor, posMember, posPost, posRequest } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const A = DEMO.merchantId;
const [PUSAT, MENTENG] = DEMO.outlets;
const MAKASSAR = new ZonedCalendar('Asia/Makassar');
const HOUR = 3_600_000;

/** An order of the fixture as the test knows it: what it pushed, and how it was paid. */
interface Sale {
  at: Date;
  lines: { product: string; quantity: number }[];
  payments: { method: string; amount: number; matched?: boolean }[];
  voided?: boolean;
}

/**
 * Till closes (issue 50 §5, docs/decisions/0057-sales-orders-and-receipt-numbers.md) through both POS surfaces, on a stack of its own with a
 * local push provider: orders of a past business day of the Pusat outlet paid in cash, by a dynamic QRIS the platform
 * matched, by a QRIS the device recorded alone and by other methods, a void, two categories; each close's figures
 * against the test's own arithmetic over what it pushed.
 */
describe('Till closes: end of day and shifts', () => {
  let stack: TestStack;
  let push: HttpRecorder;
  let stopProviders: () => Promise<void>;
  let owner: PosActor;
  let staff: PosActor;
  const ownerToken = `push-till-id-${randomUUID()}`;
  const englishToken = `push-till-en-${randomUUID()}`;
  // A business day of its own, 40 days ago in Asia/Makassar: no other spec's orders are in it.
  const day = addDays(MAKASSAR.dateOf(new Date()), -40);
  const at = (hours: number) => new Date(MAKASSAR.midnight(day).getTime() + hours * HOUR);
  const prices: Record<string, { price: number; category: string | null }> = {
    kopi: { price: 18_000, category: 'Minuman' },
    teh: { price: 10_000, category: 'Minuman' },
    roti: { price: 15_000, category: 'Makanan' },
    es: { price: 2_000, category: null },
  };
  const categoryIds: Record<string, string> = {};
  const variantIds: Record<string, string> = {};
  const sales: Sale[] = [];
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);
  const closeCount = async () =>
    (await sql<{ n: number }>(`select count(*)::int as n from catalog.till_closes where merchant_id = $1`, [A]))[0].n;

  const close = (surface: Surface, actor: PosActor, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    posPost(stack, surface, actor, '/till/closes', body, headers);

  /** Pushes a completed order of `sale` (arithmetic as the device does it: change when cash is over the total). */
  const pushSale = async (sale: Sale, status: 'completed' | 'open' = 'completed') => {
    const items = sale.lines.map((l, i) => ({
      line_no: i + 1,
      variant_id: variantIds[l.product],
      quantity: l.quantity,
      unit_price_amount: prices[l.product].price,
      line_total_amount: l.quantity * prices[l.product].price,
    }));
    const total = items.reduce((s, i) => s + i.line_total_amount, 0);
    const paid = sale.payments.reduce((s, p) => s + p.amount, 0);
    const id = randomUUID();
    const res = await posRequest(stack, 'service', owner)('POST', '/sync/push', {
      items: [
        {
          outbox_id: randomUUID(),
          entity_type: 'sales_order',
          entity_id: id,
          op: 'create',
          payload: {
            outlet_id: PUSAT.id,
            status,
            transacted_at: sale.at.getTime(),
            items,
            payments: sale.payments.map(({ method, amount }) => ({ method, amount })),
            subtotal_amount: total,
            total_amount: total,
            paid_amount: paid,
            change_amount: Math.max(paid - total, 0),
          },
        },
      ],
    });
    expect(res.body.accepted).toHaveLength(1);
    return id;
  };

  /** The figures of `sales` transacted in [from, before), by the rules the reference states, computed here on their own. */
  const expected = (from: Date, before: Date, openingFloat: number) => {
    const inWindow = sales.filter((s) => s.at >= from && s.at < before);
    const sold = inWindow.filter((s) => !s.voided);
    const totalOf = (s: Sale) => s.lines.reduce((sum, l) => sum + l.quantity * prices[l.product].price, 0);
    const paidOf = (s: Sale) => s.payments.reduce((sum, p) => sum + p.amount, 0);
    const change = sold.reduce((sum, s) => sum + Math.max(paidOf(s) - totalOf(s), 0), 0);
    const payments = sold.flatMap((s) => s.payments.map((p) => ({ ...p, sale: s })));
    const cash = payments.filter((p) => p.method === 'cash').reduce((sum, p) => sum + p.amount, 0);
    const methods = [...new Set(payments.map((p) => p.method))].map((method) => ({
      method,
      order_count: new Set(payments.filter((p) => p.method === method).map((p) => p.sale)).size,
      amount: payments.filter((p) => p.method === method).reduce((sum, p) => sum + p.amount, 0),
    }));
    const lines = sold.flatMap((s) => s.lines);
    const categories = [...new Set(lines.map((l) => prices[l.product].category))].map((name) => {
      const of = lines.filter((l) => prices[l.product].category === name);
      return {
        category_id: name === null ? null : categoryIds[name],
        category_name: name,
        quantity: of.reduce((sum, l) => sum + l.quantity, 0),
        amount: of.reduce((sum, l) => sum + l.quantity * prices[l.product].price, 0),
      };
    });
    const voids = inWindow.filter((s) => s.voided);
    return {
      opening_float: openingFloat,
      expected_cash: openingFloat + cash - change,
      order_count: sold.length,
      sales_amount: sold.reduce((sum, s) => sum + totalOf(s), 0),
      change_amount: change,
      qris_matched_amount: payments.filter((p) => p.matched).reduce((sum, p) => sum + p.amount, 0),
      qris_matched_count: payments.filter((p) => p.matched).length,
      qris_unconfirmed_amount: payments.filter((p) => p.method === 'qris' && !p.matched).reduce((sum, p) => sum + p.amount, 0),
      sales_by_method: methods.sort((a, b) => b.amount - a.amount || a.method.localeCompare(b.method)),
      sales_by_category: categories.sort((a, b) => b.amount - a.amount),
      void_count: voids.length,
      void_amount: voids.reduce((sum, s) => sum + totalOf(s), 0),
    };
  };

  const pushesTo = (token: string) =>
    push.requests.filter((r) => r.json?.message?.token === token && r.json?.message?.data?.type === 'till_cash_difference');

  beforeAll(async () => {
    const providers = await startMessageProviders();
    push = providers.push;
    stopProviders = async () => {
      await Promise.all([providers.messaging, providers.push, providers.email].map((r) => r.stop()));
    };
    // Settlements of QRIS-paid orders are found by the periodic tick here (no Redis signal in this stack).
    stack = await startTestStack({ ...providers.env, LIVE_POLL_MS: '100' }, { own: true });
    owner = await posActor(stack, A);
    const english = await posActor(stack, A);
    staff = await posMember(stack, A, 'staff', [PUSAT.id]);
    for (const [actor, token] of [
      [owner, ownerToken],
      [english, englishToken],
    ] as const) {
      const saved = await stack.rest.inject({
        method: 'POST',
        url: '/auth/push-tokens',
        headers: { authorization: `Bearer ${actor.token}` },
        payload: { push_token: token, device_id: `device-${randomUUID()}` },
      });
      expect(saved.statusCode).toBe(200);
    }
    const settings = await stack.rest.inject({
      method: 'PUT',
      url: '/auth/account-settings',
      headers: { authorization: `Bearer ${english.token}` },
      payload: { app_language: 'en' },
    });
    expect(settings.statusCode).toBe(200);

    const app = posRequest(stack, 'app', owner);
    for (const name of ['Minuman', 'Makanan']) categoryIds[name] = (await app('POST', '/catalog/categories', { name })).body.id;
    for (const [key, { price, category }] of Object.entries(prices)) {
      const product = await app('POST', '/catalog/products', {
        name: key,
        sku: `TILL-${key}-${randomUUID()}`,
        sell_price_amount: price,
        category_id: category === null ? null : categoryIds[category],
      });
      expect(product.status).toBe(201);
      const [{ id }] = await sql<{ id: string }>(`select id from catalog.variants where product_id = $1`, [product.body.id]);
      variantIds[key] = id;
    }

    sales.push(
      // 00:30 Makassar is 23:30 of the day before in Jakarta: in this business day all the same.
      { at: at(0.5), lines: [{ product: 'teh', quantity: 1 }], payments: [{ method: 'card', amount: 10_000 }] },
      {
        at: at(9),
        lines: [
          { product: 'kopi', quantity: 2 },
          { product: 'roti', quantity: 1 },
        ],
        payments: [{ method: 'cash', amount: 60_000 }],
      },
      { at: at(12), lines: [{ product: 'kopi', quantity: 1 }], payments: [{ method: 'qris', amount: 18_000 }] },
      {
        at: at(13),
        lines: [
          { product: 'teh', quantity: 3 },
          { product: 'es', quantity: 1 },
        ],
        payments: [
          { method: 'cash', amount: 20_000 },
          { method: 'ewallet', amount: 12_000 },
        ],
      },
      { at: at(14), lines: [{ product: 'kopi', quantity: 1 }], payments: [{ method: 'cash', amount: 20_000 }], voided: true },
      // The evening before, and the next morning: outside the day.
      { at: at(-0.5), lines: [{ product: 'roti', quantity: 1 }], payments: [{ method: 'cash', amount: 15_000 }] },
      { at: at(24.25), lines: [{ product: 'roti', quantity: 1 }], payments: [{ method: 'cash', amount: 15_000 }] },
    );
    for (const sale of sales) {
      const id = await pushSale(sale);
      if (sale.voided) expect((await app('PATCH', `/sales/orders/${id}`, { action: 'void' })).status).toBe(200);
    }
    // An order the device pushes open and a dynamic QRIS of the platform pays, matched by bill number and amount.
    const qrisSale: Sale = { at: at(11), lines: [{ product: 'roti', quantity: 2 }], payments: [] };
    const orderId = await pushSale(qrisSale, 'open');
    const payment = await app('POST', '/payments/qris', { outlet_id: PUSAT.id, amount: 30_000, sales_order_id: orderId });
    expect(payment.status).toBe(201);
    const paid = await postDemoBankEvent(stack, {
      external_event_id: `evt-till-${randomUUID()}`,
      transaction_code: `TRX-till-${randomUUID()}`,
      reference_number: payment.body.bill_number,
      gross_amount: 30_000,
    });
    expect(paid.statusCode).toBe(200);
    await eventually('the QRIS-paid order completed', async () => {
      const order = (await app('GET', `/sales/orders/${orderId}`)).body;
      return order.status === 'completed' ? order : undefined;
    });
    qrisSale.payments.push({ method: 'qris', amount: 30_000, matched: true });
    sales.push(qrisSale);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await stopProviders?.();
  });

  it('refuses viewers, other outlets’ staff, other merchants’ outlets and bad input, and records nothing', async () => {
    const good = { outlet_id: PUSAT.id, kind: 'day', business_day: day, counted_cash: 100_000 };
    const viewer = await posMember(stack, A, 'viewer');
    const elsewhere = await posMember(stack, A, 'staff', [MENTENG.id]);
    for (const actor of [viewer, elsewhere]) expect((await close('app', actor, good)).statusCode).toBe(403);
    const foreign = await close('app', owner, { ...good, outlet_id: DEMO.otherMerchants[0].outlets[0].id });
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, 'not_found']);
    for (const bad of [
      { ...good, counted_cash: -1 },
      { ...good, counted_cash: 1.5 },
      { ...good, kind: 'week' },
      { ...good, business_day: addDays(MAKASSAR.dateOf(new Date()), 1) },
      { ...good, business_day: '2026-02-30' },
      { ...good, shift_start: at(8).toISOString() },
      { outlet_id: PUSAT.id, kind: 'shift', counted_cash: 0 },
      { outlet_id: PUSAT.id, kind: 'shift', shift_start: at(10).toISOString(), shift_end: at(9).toISOString(), counted_cash: 0 },
      { outlet_id: PUSAT.id, kind: 'shift', shift_start: at(0).toISOString(), shift_end: at(25).toISOString(), counted_cash: 0 },
      {
        outlet_id: PUSAT.id,
        kind: 'shift',
        shift_start: new Date().toISOString(),
        shift_end: new Date(Date.now() + HOUR).toISOString(),
        counted_cash: 0,
      },
    ]) {
      const res = await close('app', owner, bad);
      expect([res.statusCode, res.json().code, bad]).toEqual([400, 'bad_request', bad]);
    }
    const badKey = await close('app', owner, good, { 'idempotency-key': 'with space' });
    expect([badKey.statusCode, badKey.json().code]).toEqual([400, 'bad_request']);
    expect(await closeCount()).toBe(0);
  });

  it('closes the day (staff of the outlet): figures of the day’s orders, once; a replay answers the same close; the owners are pushed the difference', async () => {
    const body = {
      outlet_id: PUSAT.id,
      kind: 'day',
      business_day: day,
      counted_cash: 170_000,
      opening_float: 100_000,
      cashier_name: 'Sari',
    };
    const key = `till-${randomUUID()}`;
    const res = await close('app', staff, body, { 'idempotency-key': key });
    expect(res.statusCode).toBe(201);
    const want = expected(MAKASSAR.midnight(day), MAKASSAR.midnight(addDays(day, 1)), 100_000);
    // The test's own arithmetic, written out once: 5 sales, 9,000 change, 80,000 cash, 30,000 QRIS matched.
    expect(want).toMatchObject({ order_count: 5, sales_amount: 141_000, expected_cash: 171_000, qris_matched_amount: 30_000 });
    const made = res.json();
    expect(made).toEqual({
      id: expect.any(String),
      outlet_id: PUSAT.id,
      kind: 'day',
      business_day: day,
      cashier_user_id: expect.any(String),
      cashier_name: 'Sari',
      period_start: MAKASSAR.iso(MAKASSAR.midnight(day)),
      period_end: MAKASSAR.iso(MAKASSAR.midnight(addDays(day, 1))),
      counted_cash: 170_000,
      cash_difference: 170_000 - want.expected_cash,
      ...want,
      note: null,
      created_at: expect.stringMatching(/\+08:00$/),
    });

    // A replay: the same close, no second row; the same key for another request (another body, or another cashier): 409.
    const again = await close('app', staff, body, { 'idempotency-key': key });
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(again.json()).toEqual(made);
    const reused = await close('app', staff, { ...body, counted_cash: 171_000 }, { 'idempotency-key': key });
    expect([reused.statusCode, reused.json().code]).toEqual([409, 'idempotency_key_reused']);
    const byService = await close('service', owner, body, { 'idempotency-key': key });
    expect([byService.statusCode, byService.json().code]).toEqual([409, 'idempotency_key_reused']);
    // A second close of the day: 409, on both surfaces, also by the owner.
    for (const surface of ['service', 'app'] as const) {
      const second = await close(surface, owner, { ...body, counted_cash: 171_000 });
      expect([second.statusCode, second.json().code]).toEqual([409, 'till_already_closed']);
    }
    expect(await closeCount()).toBe(1);

    // Short by 1,000: every owner is pushed once, in their language.
    const pushed = await eventually('the cash-difference push', async () => pushesTo(ownerToken)[0]);
    expect(pushed.json.message.notification).toEqual({
      title: 'Kas kurang Rp1.000',
      body: expect.stringMatching(/^Tutup hari .+ di .+: kas dihitung Rp170\.000, seharusnya Rp171\.000\.$/),
    });
    expect(pushed.json.message.data).toMatchObject({ close_id: made.id, outlet_id: PUSAT.id, cash_difference: '-1000' });
    const english = await eventually('the English push', async () => pushesTo(englishToken)[0]);
    expect(english.json.message.notification.title).toBe('Cash short by Rp1.000');
    await new Promise((r) => setTimeout(r, 300));
    expect([pushesTo(ownerToken).length, pushesTo(englishToken).length]).toEqual([1, 1]);
  });

  it('concurrent closes: one key, one close; one day, one close and 409 for the others', async () => {
    const before = addDays(day, -1);
    const body = { outlet_id: PUSAT.id, kind: 'day', business_day: before, counted_cash: 15_000 };
    const key = `till-race-${randomUUID()}`;
    const replays = await Promise.all(Array.from({ length: 6 }, () => close('app', owner, body, { 'idempotency-key': key })));
    expect(replays.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(replays.map((r) => r.json().id)).size).toBe(1);
    // The evening before the fixture's day: the one cash sale of 15,000, counted right.
    expect(replays[0].json()).toMatchObject({ order_count: 1, expected_cash: 15_000, cash_difference: 0 });
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        close('service', owner, { ...body, business_day: addDays(day, -2), counted_cash: 0, note: `race ${i}` }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(racing.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual(Array(5).fill('till_already_closed'));
    expect(
      await sql(`select count(*)::int as n from catalog.till_closes where merchant_id = $1 and business_day = any($2::date[])`, [
        A,
        [before, addDays(day, -2)],
      ]),
    ).toEqual([{ n: 2 }]);
  });

  it('the owner sees the closes (list and by id); members outside the outlet and other merchants do not', async () => {
    const [row] = await sql<{ id: string }>(`select id from catalog.till_closes where merchant_id = $1 and business_day = $2`, [A, day]);
    const app = posRequest(stack, 'app', owner);
    const list = await app('GET', `/till/closes?outlet_id=${PUSAT.id}&date_from=${day}&date_to=${day}`);
    expect(list.status).toBe(200);
    expect(list.body.closes.map((c: { id: string }) => c.id)).toEqual([row.id]);
    const one = await app('GET', `/till/closes/${row.id}`);
    expect(one.body).toEqual(list.body.closes[0]);
    expect((await posRequest(stack, 'service', owner)('GET', `/till/closes/${row.id}`)).body).toEqual(one.body);
    const elsewhere = await posMember(stack, A, 'staff', [MENTENG.id]);
    expect((await posRequest(stack, 'app', elsewhere)('GET', `/till/closes/${row.id}`)).status).toBe(403);
    expect((await posRequest(stack, 'app', elsewhere)('GET', `/till/closes`)).body.closes).toEqual([]);
    const other = await posActor(stack, DEMO.otherMerchants[0].id);
    const theirs = await posRequest(stack, 'app', other)('GET', `/till/closes/${row.id}`);
    expect([theirs.status, theirs.body.code]).toEqual([404, 'not_found']);
    const backwards = await app('GET', `/till/closes?date_from=${day}&date_to=${addDays(day, -1)}`);
    expect([backwards.status, backwards.body.code]).toEqual([400, 'bad_request']);
  });

  it('closes shifts: the outlet’s orders of the window; a cashier’s overlapping shift is 409, another cashier’s is not; no difference, no push', async () => {
    const shift = async (cashier: string, from: number, to: number) => {
      const want = expected(at(from), at(to), 50_000);
      const res = await close('service', owner, {
        outlet_id: PUSAT.id,
        kind: 'shift',
        shift_start: at(from).toISOString(),
        shift_end: at(to).toISOString(),
        cashier_name: cashier,
        counted_cash: want.expected_cash,
        opening_float: 50_000,
      });
      return { res, want };
    };
    const budi = await shift('Budi', 8, 12.5);
    expect(budi.res.statusCode).toBe(201);
    expect(budi.want).toMatchObject({ order_count: 3, qris_matched_count: 1, qris_unconfirmed_amount: 18_000 });
    expect(budi.res.json()).toMatchObject({
      ...budi.want,
      kind: 'shift',
      business_day: null,
      cashier_user_id: null,
      cashier_name: 'Budi',
      cash_difference: 0,
    });
    const overlap = await shift('Budi', 12, 15);
    expect([overlap.res.statusCode, overlap.res.json().code]).toEqual([409, 'till_already_closed']);
    const sari = await shift('Sari', 12, 15);
    expect(sari.res.statusCode).toBe(201);
    expect(sari.res.json()).toMatchObject({ ...sari.want, void_count: 1, void_amount: 18_000, cash_difference: 0 });
    expect(await closeCount()).toBe(5);
    await new Promise((r) => setTimeout(r, 300));
    expect([pushesTo(ownerToken).length, pushesTo(englishToken).length]).toEqual([1, 1]);

    // An app user's shifts are the user's, whatever name it gives; today's close without a day: today, up to now.
    const mine = {
      outlet_id: MENTENG.id,
      kind: 'shift',
      shift_start: at(1).toISOString(),
      shift_end: at(2).toISOString(),
      counted_cash: 0,
    };
    expect((await close('app', owner, { ...mine, cashier_name: 'Ani' })).statusCode).toBe(201);
    const renamed = await close('app', owner, { ...mine, cashier_name: 'Ani Lain' });
    expect([renamed.statusCode, renamed.json().code]).toEqual([409, 'till_already_closed']);
    const today = await close('app', owner, { outlet_id: MENTENG.id, kind: 'day', counted_cash: 0 });
    expect(today.statusCode).toBe(201);
    expect(today.json()).toMatchObject({
      business_day: MAKASSAR.dateOf(new Date()),
      period_start: MAKASSAR.iso(MAKASSAR.midnight(MAKASSAR.dateOf(new Date()))),
    });
    expect(Date.parse(today.json().period_end)).toBeLessThanOrEqual(Date.now());
  });
});
