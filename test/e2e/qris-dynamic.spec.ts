import { randomUUID } from 'node:crypto';
import { parse as parseEmv } from 'promptparse';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { type PosActor, type Surface, posActor, posMember, posPost, posRequest, pushOpenOrder } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { postDemoBankEvent } from '../support/bank-events';
import { type TestStack, startTestStack } from '../support/test-stack';

const A = DEMO.merchantId;
const B = DEMO.otherMerchants[0].id;
const [PUSAT, MENTENG] = DEMO.outlets;

describe('Dynamic QRIS per sale (issue 17 §2)', () => {
  let stack: TestStack;
  let owner: PosActor;
  const sql = <T extends object = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);

  beforeAll(async () => {
    // Settlements of sales orders are found by the periodic tick here (no Redis signal in this stack).
    stack = await startTestStack({ LIVE_POLL_MS: '100' });
    owner = await posActor(stack, A);
  });
  afterAll(() => stack.close());

  const create = (surface: Surface, actor: PosActor, body: unknown, headers: Record<string, string> = {}) =>
    posPost(stack, surface, actor, '/payments/qris', body, headers);
  const paymentOf = async (id: string) => (await posRequest(stack, 'app', owner)('GET', `/payments/qris/${id}`)).body;

  /** A bank event of the demo bank, signed as psp-api.md §5 says. */
  const bankEvent = (event: Record<string, unknown>) => postDemoBankEvent(stack, event);
  const payEvent = (id: string, bill: string, amount: number, extra: Record<string, unknown> = {}) =>
    bankEvent({ external_event_id: id, transaction_code: `TRX-${id}`, reference_number: bill, gross_amount: amount, ...extra });
  const unmatched = (bill: string) =>
    sql<{ reason: string; gross_amount: string }>(
      `select reason, gross_amount from "transaction".qris_unmatched_payments where bill_number = $1`,
      [bill],
    );

  it.each(['service', 'app'] as const)(
    'creates a payment on the %s surface: 201, its payload a dynamic QRIS of the outlet',
    async (surface) => {
      const res = await create(surface, owner, { outlet_id: PUSAT.id, amount: 25_000 });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        id: expect.any(String),
        outlet_id: PUSAT.id,
        amount: 25_000,
        bill_number: expect.stringMatching(/^QR[0-9A-Z]{14}$/),
        qris_payload: expect.any(String),
        status: 'pending',
        sales_order_id: null,
        expires_at: expect.any(String),
        paid_at: null,
        transaction_id: null,
        created_at: expect.any(String),
      });
      expect(new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()).toBe(900_000);
      const qr = parseEmv(body.qris_payload, true, true)!; // strict: CRC checked
      expect(qr).not.toBeNull();
      expect(qr.getTagValue('00')).toBe('01');
      expect(qr.getTagValue('01')).toBe('12');
      expect(qr.getTagValue('51', '00')).toBe('ID.CO.QRIS.WWW');
      expect(qr.getTagValue('51', '02')).toBe(PUSAT.nmid);
      expect(qr.getTagValue('52')).toBe('5814');
      expect(qr.getTagValue('53')).toBe('360');
      expect(qr.getTagValue('54')).toBe('25000');
      expect(qr.getTagValue('58')).toBe('ID');
      expect(qr.getTagValue('59')).toBe('WARUNG KOPI DEMO');
      expect(qr.getTagValue('62', '01')).toBe(body.bill_number);
      const got = await posRequest(stack, surface, owner)('GET', `/payments/qris/${body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(body);
    },
  );

  it('checks amount bounds, expiry, outlet scope and roles (staff of the outlet may create)', async () => {
    for (const body of [
      { outlet_id: PUSAT.id, amount: 0 },
      { outlet_id: PUSAT.id, amount: 10_000_001 },
      { outlet_id: PUSAT.id, amount: 1500.5 },
      { outlet_id: PUSAT.id, amount: 1000, expires_in_secs: 10 },
      { outlet_id: 'not-a-uuid', amount: 1000 },
      { amount: 1000 },
    ]) {
      const res = await create('app', owner, body);
      expect([res.statusCode, res.json().code]).toEqual([400, 'bad_request']);
    }
    const foreign = await create('app', owner, { outlet_id: DEMO.otherMerchants[0].outlets[0].id, amount: 1000 });
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, 'not_found']);
    const bare = await posRequest(stack, 'app', owner)('POST', '/catalog/outlets', { code: 'QR-NONE', name: 'Tanpa NMID' });
    const none = await create('app', owner, { outlet_id: bare.body.id, amount: 1000 });
    expect([none.statusCode, none.json().code]).toEqual([409, 'qris_unavailable']);

    const staff = await posMember(stack, A, 'staff', [PUSAT.id]);
    const staffElsewhere = await posMember(stack, A, 'staff', [MENTENG.id]);
    const viewer = await posMember(stack, A, 'viewer');
    const made = await create('app', staff, { outlet_id: PUSAT.id, amount: 1000, expires_in_secs: 60 });
    expect(made.statusCode).toBe(201);
    // Asia/Makassar, as every time of the core API (docs/api/index.md).
    expect(made.json().expires_at).toMatch(/\+08:00$/);
    expect(Date.parse(made.json().expires_at)).toBe(Date.parse(made.json().created_at) + 60_000);
    for (const actor of [staffElsewhere, viewer])
      expect((await create('app', actor, { outlet_id: PUSAT.id, amount: 1000 })).statusCode).toBe(403);
    expect((await posRequest(stack, 'app', staffElsewhere)('GET', `/payments/qris/${made.json().id}`)).status).toBe(403);
    const other = await posActor(stack, B);
    for (const surface of ['service', 'app'] as const) {
      const res = await posRequest(stack, surface, other)('GET', `/payments/qris/${made.json().id}`);
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
  });

  it('Idempotency-Key: the same key and body return the same payment, another body 409, concurrent requests one payment', async () => {
    const key = `pos-${randomUUID()}`;
    const body = { outlet_id: PUSAT.id, amount: 42_000 };
    const first = await create('app', owner, body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    const again = await create('service', owner, body, { 'idempotency-key': key });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const changed = await create('app', owner, { ...body, amount: 43_000 }, { 'idempotency-key': key });
    expect([changed.statusCode, changed.json().code]).toEqual([409, 'idempotency_key_reused']);
    // Keys are per merchant: another merchant's same key is its own.
    const other = await posActor(stack, B);
    const theirs = await create(
      'app',
      other,
      { outlet_id: DEMO.otherMerchants[0].outlets[0].id, amount: 42_000 },
      { 'idempotency-key': key },
    );
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(first.json().id);

    const racing = `pos-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => create('app', owner, body, { 'idempotency-key': racing })));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((r) => r.json().id)).size).toBe(1);
    expect(await sql(`select count(*)::int as n from "transaction".qris_payments where idempotency_key = $1`, [racing])).toEqual([
      { n: 1 },
    ]);
  });

  it('Idempotency-Key: a replay after the linked order was paid answers the payment created first', async () => {
    const key = `pos-${randomUUID()}`;
    const body = { outlet_id: PUSAT.id, amount: 31_000, sales_order_id: await pushOpenOrder(stack, owner, PUSAT.id, 31_000) };
    const first = await create('app', owner, body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect((await payEvent(`evt-replay-${randomUUID()}`, first.json().bill_number, 31_000)).statusCode).toBe(200);
    expect((await settledOrder(body.sales_order_id)).status).toBe('completed');
    const again = await create('app', owner, body, { 'idempotency-key': key });
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(again.json()).toMatchObject({ id: first.json().id, status: 'paid' });
    // Without the key, the same request meets the order as it is now.
    const fresh = await create('app', owner, body);
    expect([fresh.statusCode, fresh.json().code]).toEqual([409, 'sales_order_not_open']);
  });

  it('a success event with the bill number and amount marks it paid once, also under concurrent replays and a second payer', async () => {
    const payment = (
      await create('app', owner, {
        outlet_id: PUSAT.id,
        amount: 57_500,
        sales_order_id: await pushOpenOrder(stack, owner, PUSAT.id, 57_500),
      })
    ).json();
    const id = `evt-qris-${randomUUID()}`;
    // The same event five times and another payer's event for the same bill, all at once (the adapter batches them).
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => payEvent(id, payment.bill_number, 57_500)),
      payEvent(`${id}-second-payer`, payment.bill_number, 57_500, { event_type: 'transaction.success' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    // Either payer may win the race: exactly one of the two transactions pays the bill, the other is kept as
    // `already_paid`.
    const transactions = await sql<{ external_event_id: string; transaction_id: string }>(
      `select external_event_id, transaction_id from "transaction".payment_events where external_event_id = any($1) order by external_event_id`,
      [[id, `${id}-second-payer`]],
    );
    expect(transactions).toHaveLength(2);
    const paid = await paymentOf(payment.id);
    expect(paid).toMatchObject({ status: 'paid', paid_at: expect.any(String) });
    const loser = transactions.find((t) => t.transaction_id !== paid.transaction_id);
    expect(transactions.map((t) => t.transaction_id)).toContain(paid.transaction_id);
    expect(
      await sql(`select reason, transaction_id from "transaction".qris_unmatched_payments where bill_number = $1`, [payment.bill_number]),
    ).toEqual([{ reason: 'already_paid', transaction_id: loser?.transaction_id }]);
    // A later replay changes nothing.
    expect((await payEvent(id, payment.bill_number, 57_500)).json().status).toBe('duplicate_skipped');
    expect(await paymentOf(payment.id)).toEqual(paid);
    expect(await unmatched(payment.bill_number)).toHaveLength(1);
  });

  it('a wrong amount, an expired payment, another outlet or an unknown bill number is kept as an unmatched payment', async () => {
    const payment = (await create('app', owner, { outlet_id: PUSAT.id, amount: 10_000 })).json();
    expect((await payEvent(`evt-wrong-${randomUUID()}`, payment.bill_number, 9_999)).statusCode).toBe(200);
    expect((await paymentOf(payment.id)).status).toBe('pending');
    expect(await unmatched(payment.bill_number)).toEqual([{ reason: 'amount_mismatch', gross_amount: '9999' }]);

    const wrongOutlet = (await create('app', owner, { outlet_id: PUSAT.id, amount: 5_000 })).json();
    await payEvent(`evt-outlet-${randomUUID()}`, wrongOutlet.bill_number, 5_000, { nmid: MENTENG.nmid });
    expect((await paymentOf(wrongOutlet.id)).status).toBe('pending');
    expect((await unmatched(wrongOutlet.bill_number)).map((r) => r.reason)).toEqual(['other_outlet']);

    const late = (await create('app', owner, { outlet_id: PUSAT.id, amount: 7_000, expires_in_secs: 60 })).json();
    await sql(`update "transaction".qris_payments set expires_at = now() - interval '1 minute' where id = $1`, [late.id]);
    expect((await paymentOf(late.id)).status).toBe('expired');
    await payEvent(`evt-late-${randomUUID()}`, late.bill_number, 7_000);
    expect((await paymentOf(late.id)).status).toBe('expired');
    expect((await unmatched(late.bill_number)).map((r) => r.reason)).toEqual(['expired']);

    const unknownBill = 'QR0000000000ZZZZ';
    expect((await payEvent(`evt-unknown-${randomUUID()}`, unknownBill, 1_000)).statusCode).toBe(200);
    expect((await unmatched(unknownBill)).map((r) => r.reason)).toEqual(['unknown_bill_number']);

    // An ordinary payment of the static QRIS (a bank reference that is no bill number of ours) is not a candidate.
    const plain = `REF-${randomUUID()}`;
    expect((await payEvent(`evt-plain-${randomUUID()}`, plain, 1_000)).statusCode).toBe(200);
    expect(await sql(`select count(*)::int as n from "transaction".qris_unmatched_payments where bill_number = $1`, [plain])).toEqual([
      { n: 0 },
    ]);
  });

  const orderOf = async (id: string) => (await posRequest(stack, 'app', owner)('GET', `/sales/orders/${id}`)).body;
  /** Waits until the order leaves `open` (the settlement dispatcher runs on the 100 ms tick here). */
  const settledOrder = async (id: string) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const order = await orderOf(id);
      if (order.status !== 'open' || Date.now() > deadline) return order;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const settlementsOf = (paymentId: string) =>
    sql<{ outcome: string }>(`select outcome from catalog.qris_settlements where qris_payment_id = $1`, [paymentId]);

  it('a linked open sales order is marked paid (QRIS payment row, completed) once, seen in the order route and the sync pull', async () => {
    // The device pushes the order open, with a cash part; QRIS pays the rest.
    const orderId = await pushOpenOrder(stack, owner, PUSAT.id, 75_000, 25_000);
    const open = await orderOf(orderId);
    expect(open).toMatchObject({ status: 'open', total_amount: 75_000, paid_amount: 25_000, change_amount: 0 });
    const since = (await posRequest(stack, 'app', owner)('GET', `/sync/pull?entity=sales_orders&since=0`)).body.server_time;

    const res = await create('app', owner, { outlet_id: PUSAT.id, amount: 50_000, sales_order_id: orderId });
    expect(res.statusCode).toBe(201);
    const payment = res.json();
    expect(payment.sales_order_id).toBe(orderId);
    const id = `evt-order-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => payEvent(id, payment.bill_number, 50_000)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(5).fill(200));

    const paid = await settledOrder(orderId);
    expect(paid).toMatchObject({ status: 'completed', total_amount: 75_000, paid_amount: 75_000, change_amount: 0 });
    expect(paid.payments.map((p: { method: string; amount: number }) => [p.method, p.amount]).sort()).toEqual([
      ['cash', 25_000],
      ['qris', 50_000],
    ]);
    const pulled = (await posRequest(stack, 'service', owner)('GET', `/sync/pull?entity=sales_orders&since=${since}`)).body;
    expect(pulled.rows.filter((r: { id: string }) => r.id === orderId)).toEqual([
      expect.objectContaining({ id: orderId, status: 'completed', paid_amount: 75_000, updated_at: expect.any(Number) }),
    ]);
    expect(await settlementsOf(payment.id)).toEqual([{ outcome: 'applied' }]);
    // Exactly one payment row and one settlement, whatever the replays; a later replay changes nothing.
    expect((await payEvent(id, payment.bill_number, 50_000)).json().status).toBe('duplicate_skipped');
    await new Promise((r) => setTimeout(r, 300));
    expect(
      await sql(`select count(*)::int as n from catalog.sales_order_payments where sales_order_id = $1 and method = 'qris'`, [orderId]),
    ).toEqual([{ n: 1 }]);
    expect(await sql(`select outcome from "transaction".sales_order_settlements where qris_payment_id = $1`, [payment.id])).toEqual([
      { outcome: 'applied' },
    ]);
  });

  it('checks the linked order at creation: merchant, outlet, open, amount left to pay, one live payment', async () => {
    const orderId = await pushOpenOrder(stack, owner, PUSAT.id, 20_000);
    const expectError = async (body: Record<string, unknown>, status: number, code: string) => {
      const res = await create('app', owner, body);
      expect([res.statusCode, res.json().code]).toEqual([status, code]);
    };
    await expectError({ outlet_id: PUSAT.id, amount: 20_000, sales_order_id: randomUUID() }, 404, 'not_found');
    await expectError({ outlet_id: MENTENG.id, amount: 20_000, sales_order_id: orderId }, 400, 'bad_request');
    await expectError({ outlet_id: PUSAT.id, amount: 19_999, sales_order_id: orderId }, 400, 'bad_request');
    const other = await posActor(stack, B);
    const theirs = await pushOpenOrder(stack, other, DEMO.otherMerchants[0].outlets[0].id, 20_000);
    await expectError({ outlet_id: PUSAT.id, amount: 20_000, sales_order_id: theirs }, 404, 'not_found');

    const first = await create('app', owner, { outlet_id: PUSAT.id, amount: 20_000, sales_order_id: orderId });
    expect(first.statusCode).toBe(201);
    await expectError({ outlet_id: PUSAT.id, amount: 20_000, sales_order_id: orderId }, 409, 'sales_order_payment_pending');
    // Once cancelled, another payment may be made for the order.
    expect((await posRequest(stack, 'app', owner)('POST', `/payments/qris/${first.json().id}/cancel`)).status).toBe(200);
    const second = await create('app', owner, { outlet_id: PUSAT.id, amount: 20_000, sales_order_id: orderId });
    expect(second.statusCode).toBe(201);
    await payEvent(`evt-second-${randomUUID()}`, second.json().bill_number, 20_000);
    expect((await settledOrder(orderId)).status).toBe('completed');
    await expectError({ outlet_id: PUSAT.id, amount: 20_000, sales_order_id: orderId }, 409, 'sales_order_not_open');
  });

  it('an order voided before its payment arrives is not changed; the outcome is recorded', async () => {
    const orderId = await pushOpenOrder(stack, owner, PUSAT.id, 12_000);
    const payment = (await create('app', owner, { outlet_id: PUSAT.id, amount: 12_000, sales_order_id: orderId })).json();
    expect((await posRequest(stack, 'app', owner)('PATCH', `/sales/orders/${orderId}`, { action: 'void' })).status).toBe(200);
    await payEvent(`evt-voided-${randomUUID()}`, payment.bill_number, 12_000);
    expect((await paymentOf(payment.id)).status).toBe('paid');
    const deadline = Date.now() + 5000;
    while ((await settlementsOf(payment.id)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await settlementsOf(payment.id)).toEqual([{ outcome: 'order_voided' }]);
    expect(await orderOf(orderId)).toMatchObject({ status: 'voided', paid_amount: 0, payments: [] });
  });

  it.each(['service', 'app'] as const)(
    'cancels a pending payment on the %s surface: 200, twice the same; a paid one 409',
    async (surface) => {
      const as = posRequest(stack, surface, owner);
      const payment = (await create(surface, owner, { outlet_id: PUSAT.id, amount: 3_000 })).json();
      const cancelled = await as('POST', `/payments/qris/${payment.id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toEqual({ ...payment, status: 'cancelled' });
      const again = await as('POST', `/payments/qris/${payment.id}/cancel`);
      expect([again.status, again.body]).toEqual([200, cancelled.body]);
      expect((await as('GET', `/payments/qris/${payment.id}`)).body.status).toBe('cancelled');
      // A bank payment for a cancelled bill is kept for reconciliation.
      await payEvent(`evt-cancelled-${randomUUID()}`, payment.bill_number, 3_000);
      expect((await paymentOf(payment.id)).status).toBe('cancelled');
      expect((await unmatched(payment.bill_number)).map((r) => r.reason)).toEqual(['cancelled']);

      const paidOne = (await create(surface, owner, { outlet_id: PUSAT.id, amount: 4_000 })).json();
      await payEvent(`evt-paid-${randomUUID()}`, paidOne.bill_number, 4_000);
      const refused = await as('POST', `/payments/qris/${paidOne.id}/cancel`);
      expect([refused.status, refused.body.code]).toEqual([409, 'qris_payment_paid']);
      expect(refused.body.error).toEqual(expect.any(String));
      expect((await paymentOf(paidOne.id)).status).toBe('paid');
    },
  );

  it('cancel: roles as create (viewer and other outlets 403), another merchant 404', async () => {
    const payment = (await create('app', owner, { outlet_id: PUSAT.id, amount: 2_000 })).json();
    const viewer = await posMember(stack, A, 'viewer');
    const staffElsewhere = await posMember(stack, A, 'staff', [MENTENG.id]);
    for (const actor of [viewer, staffElsewhere])
      expect((await posRequest(stack, 'app', actor)('POST', `/payments/qris/${payment.id}/cancel`)).status).toBe(403);
    const other = await posActor(stack, B);
    const foreign = await posRequest(stack, 'app', other)('POST', `/payments/qris/${payment.id}/cancel`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    const staff = await posMember(stack, A, 'staff', [PUSAT.id]);
    expect((await posRequest(stack, 'app', staff)('POST', `/payments/qris/${payment.id}/cancel`)).body.status).toBe('cancelled');
  });

  it('the OpenAPI document carries the new routes', async () => {
    const doc = (await stack.rest.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of [
      '/poslite/payments/qris',
      '/merchant/poslite/payments/qris',
      '/poslite/payments/qris/{id}',
      '/merchant/poslite/payments/qris/{id}',
      '/poslite/payments/qris/{id}/cancel',
      '/merchant/poslite/payments/qris/{id}/cancel',
      '/merchant/outlets/{outlet_id}/qris',
      '/poslite/outlets/{outlet_id}/qris',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
    expect(doc.paths['/merchant/poslite/payments/qris'].post.responses['201']).toBeDefined();
  });
});
