import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { HttpRecorder } from '../support/http-recorder';
import { type PosActor, posActor, posMember, pushOpenOrder } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { postDemoBankEvent } from '../support/bank-events';
import { SseClient } from '../support/sse-client';
import { type TestStack, startTestStack } from '../support/test-stack';

const A = DEMO.merchantId;
const B = DEMO.otherMerchants[0].id;
const [PUSAT, MENTENG] = DEMO.outlets;

describe('Live payment events (issue 17 §3)', () => {
  let stack: TestStack;
  let second: FastifyInstance;
  let base: string;
  let secondBase: string;
  let push: HttpRecorder;
  let owner: PosActor;
  const clients: SseClient[] = [];
  const sql = <T extends object = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);

  beforeAll(async () => {
    push = await new HttpRecorder(() => ({ status: 200, body: { name: `projects/demo/messages/${randomUUID()}` } })).start();
    stack = await startTestStack({
      REDIS_URL: 'redis://127.0.0.1:6379',
      PUSH_PROVIDER_URL: `${push.url}/v1/send`,
      PUSH_PROVIDER_TOKEN: 'push-token',
      LIVE_KEEPALIVE_MS: '300',
      // Long: events must arrive by the signal, not by the periodic re-read.
      LIVE_POLL_MS: '120000',
    });
    base = await stack.rest.listen({ host: '127.0.0.1', port: 0 });
    // A second copy of the REST process on the same subgraphs and Redis.
    second = await stack.startRestApp(stack.config, { logStream: { write: () => undefined } });
    secondBase = await second.listen({ host: '127.0.0.1', port: 0 });
    owner = await posActor(stack, A);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await second.close();
    await stack.close();
    await push.stop();
  });

  const open = async (url: string, headers: Record<string, string>) => {
    const client = await SseClient.open(url, headers);
    clients.push(client);
    return client;
  };
  const bearer = (actor: PosActor) => ({ authorization: `Bearer ${actor.token}` });
  const service = (merchantId: string) => ({ 'x-internal-api-key': stack.config.secrets.internalApiKey, 'x-merchant-id': merchantId });

  const bankEvent = (event: Record<string, unknown>) => postDemoBankEvent(stack, event);
  const pay = async (amount: number, extra: Record<string, unknown> = {}) => {
    const id = `evt-live-${randomUUID()}`;
    const res = await bankEvent({ external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: amount, ...extra });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const createPayment = async (body: Record<string, unknown>) => {
    const res = await stack.rest.inject({ method: 'POST', url: '/merchant/poslite/payments/qris', headers: bearer(owner), payload: body });
    expect(res.statusCode).toBe(201);
    return res.json();
  };

  it('per-payment stream: `paid` as the bank event is applied, on both surfaces and on either REST copy; then it ends', async () => {
    const payment = await createPayment({ outlet_id: PUSAT.id, amount: 25_000 });
    const app = await open(`${base}/merchant/poslite/payments/qris/${payment.id}/events`, bearer(owner));
    const svc = await open(`${secondBase}/poslite/payments/qris/${payment.id}/events`, service(A));
    expect([app.status, svc.status]).toEqual([200, 200]);
    expect(app.headers!.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(app.headers!.get('x-request-id')).toBeTruthy();
    await Promise.all([app, svc].map((c) => c.until((x) => x.frames.some((f) => f.comment === 'keep-alive'))));

    const answer = await pay(25_000, { reference_number: payment.bill_number });
    for (const client of [app, svc]) {
      await client.until((c) => c.events().length > 0 && c.ended);
      const [paid] = client.events();
      expect(paid).toMatchObject({ event: 'paid', id: expect.stringMatching(/^[0-9]+$/) });
      expect(paid.data).toMatchObject({
        id: payment.id,
        status: 'paid',
        amount: 25_000,
        transaction_id: answer.transaction_id ?? expect.any(String),
      });
    }
    // A payment already paid answers at once.
    const late = await open(`${base}/merchant/poslite/payments/qris/${payment.id}/events`, bearer(owner));
    await late.until((c) => c.ended);
    expect(late.events().map((e) => [e.event, e.data.status])).toEqual([['paid', 'paid']]);
  });

  it('per-payment stream: `expired` when expires_at passes unpaid; 404 for another merchant, 401 without a token', async () => {
    const payment = await createPayment({ outlet_id: PUSAT.id, amount: 9_000, expires_in_secs: 60 });
    await sql(`update "transaction".qris_payments set expires_at = now() + interval '1 second' where id = $1`, [payment.id]);
    const client = await open(`${base}/merchant/poslite/payments/qris/${payment.id}/events`, bearer(owner));
    await client.until((c) => c.ended, 6000);
    expect(client.events().map((e) => [e.event, e.data.status])).toEqual([['expired', 'expired']]);

    const other = await posActor(stack, B);
    const foreign = await open(`${base}/merchant/poslite/payments/qris/${payment.id}/events`, bearer(other));
    expect([foreign.status, foreign.frames[0].data.code]).toEqual([404, 'not_found']);
    expect((await open(`${base}/merchant/poslite/payments/qris/${payment.id}/events`, {})).status).toBe(401);
  });

  it('merchant stream: every success and matched payment, scoped by outlet; another merchant hears nothing', async () => {
    const ownerStream = await open(`${base}/merchant/payments/events`, bearer(owner));
    const staffMenteng = await posMember(stack, A, 'staff', [MENTENG.id]);
    const staffStream = await open(`${secondBase}/merchant/payments/events`, bearer(staffMenteng));
    const other = await posActor(stack, B);
    const otherStream = await open(`${base}/merchant/payments/events`, bearer(other));
    expect([ownerStream.status, staffStream.status, otherStream.status]).toEqual([200, 200, 200]);

    const payment = await createPayment({
      outlet_id: PUSAT.id,
      amount: 31_000,
      sales_order_id: await pushOpenOrder(stack, owner, PUSAT.id, 31_000),
    });
    await pay(31_000, { reference_number: payment.bill_number });
    await pay(12_345, { nmid: MENTENG.nmid, reference_number: `REF-${randomUUID()}` });

    await ownerStream.until((c) => c.events().length >= 2);
    const [matched, plain] = ownerStream.events();
    expect(matched).toMatchObject({ event: 'qris_payment.paid' });
    expect(matched.data).toMatchObject({
      type: 'qris_payment.paid',
      merchant_id: A,
      outlet_id: PUSAT.id,
      amount: 31_000,
      qris_payment: { id: payment.id, bill_number: payment.bill_number, sales_order_id: payment.sales_order_id },
    });
    expect(matched.data.event_id).toBe(matched.id);
    expect(plain).toMatchObject({ event: 'transaction.success', data: { outlet_id: MENTENG.id, amount: 12_345, qris_payment: null } });
    expect(BigInt(plain.id!)).toBeGreaterThan(BigInt(matched.id!));

    // The staff member of Menteng (on the other REST copy) hears only Menteng's payment.
    await staffStream.until((c) => c.events().length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(staffStream.events().map((e) => e.data.amount)).toEqual([12_345]);
    expect(otherStream.events()).toEqual([]);
    expect(otherStream.frames.map((f) => f.comment)).toContain('keep-alive');
  });

  it('resumes after a reconnect with Last-Event-ID (replaying what was missed, within scope); 400 for a malformed one', async () => {
    const first = await open(`${base}/merchant/payments/events`, bearer(owner));
    await pay(1_111);
    await first.until((c) => c.events().length >= 1);
    const lastSeen = first.events()[0].id!;
    first.close();
    await pay(2_222);
    await pay(3_333, { nmid: MENTENG.nmid });

    const resumed = await open(`${secondBase}/merchant/payments/events`, { ...bearer(owner), 'last-event-id': lastSeen });
    await resumed.until((c) => c.events().length >= 2);
    expect(resumed.events().map((e) => e.data.amount)).toEqual([2_222, 3_333]);
    await pay(4_444);
    await resumed.until((c) => c.events().length >= 3);
    expect(resumed.events().map((e) => e.data.amount)).toEqual([2_222, 3_333, 4_444]);

    const staffPusat = await posMember(stack, A, 'staff', [PUSAT.id]);
    const scoped = await open(`${base}/merchant/payments/events?last_event_id=${lastSeen}`, bearer(staffPusat));
    await scoped.until((c) => c.events().length >= 2);
    expect(scoped.events().map((e) => e.data.amount)).toEqual([2_222, 4_444]);

    const bad = await open(`${base}/merchant/payments/events`, { ...bearer(owner), 'last-event-id': 'abc' });
    expect([bad.status, bad.frames[0].data.code]).toEqual([400, 'bad_request']);
  });

  it('writes one feed row per successful transaction, also for replays and batches', async () => {
    const id = `evt-once-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => bankEvent({ external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: 5_000 })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await sql<{ n: number }>(
      `select count(*)::int as n from "transaction".payment_feed f join "transaction".payment_events e on e.transaction_id = f.transaction_id
       where e.external_event_id = $1`,
      [id],
    );
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('pushes "Pembayaran diterima Rp …" to the devices of members who may see the outlet, once across both copies', async () => {
    const token = `push-live-${randomUUID()}`;
    const registered = await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers: bearer(owner),
      payload: { push_token: token, device_id: `device-${randomUUID()}` },
    });
    expect(registered.statusCode).toBe(200);
    const mentengToken = `push-menteng-${randomUUID()}`;
    const staffMenteng = await posMember(stack, A, 'staff', [MENTENG.id]);
    await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers: bearer(staffMenteng),
      payload: { push_token: mentengToken, device_id: `device-${randomUUID()}` },
    });

    const payment = await createPayment({ outlet_id: PUSAT.id, amount: 25_000 });
    const answer = await pay(25_000, { reference_number: payment.bill_number });
    const toOwner = () => push.requests.filter((r) => r.json?.message?.token === token);
    const deadline = Date.now() + 5000;
    while (toOwner().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    expect(toOwner()).toHaveLength(1);
    const [sent] = toOwner();
    expect(sent.headers.authorization).toBe('Bearer push-token');
    expect(sent.json.message.notification).toMatchObject({ body: 'Pembayaran diterima Rp25.000' });
    expect(sent.json.message.data).toMatchObject({
      type: 'payment_received',
      amount: '25000',
      qris_payment_id: payment.id,
      outlet_id: PUSAT.id,
      transaction_id: answer.transaction_id ?? expect.any(String),
    });
    // The Menteng staff member does not see Pusat.
    expect(push.requests.filter((r) => r.json?.message?.token === mentengToken)).toHaveLength(0);
    // One push recorded, and nothing left on the queue (the intake enqueued it with the payment: 0205-job-queue.md).
    const recorded = await sql<{ status: string }>(`select status from merchant.notification_messages where recipient = $1`, [token]);
    expect(recorded).toEqual([{ status: 'accepted' }]);
    // (The recurring plan jobs wait for their time: daily summary, automatic suspension, statements, reconciliation.)
    expect(
      await sql(
        `select task_identifier from graphile_worker.jobs where task_identifier not in ('daily_summary.plan', 'suspension.plan', 'statement.plan', 'reconciliation.plan')`,
      ),
    ).toEqual([]);
  });

  it('per-payment stream: `cancelled` as soon as the payment is cancelled, on either REST copy', async () => {
    const payment = await createPayment({ outlet_id: PUSAT.id, amount: 8_000 });
    const app = await open(`${base}/merchant/poslite/payments/qris/${payment.id}/events`, bearer(owner));
    const svc = await open(`${secondBase}/poslite/payments/qris/${payment.id}/events`, service(A));
    await Promise.all([app, svc].map((c) => c.until((x) => x.frames.some((f) => f.comment === 'keep-alive'))));
    const merchantStream = await open(`${base}/merchant/payments/events`, bearer(owner));
    const cancelled = await stack.rest.inject({
      method: 'POST',
      url: `/merchant/poslite/payments/qris/${payment.id}/cancel`,
      headers: bearer(owner),
    });
    expect(cancelled.statusCode).toBe(200);
    for (const client of [app, svc]) {
      await client.until((c) => c.events().length > 0 && c.ended);
      expect(client.events().map((e) => [e.event, e.data.status, e.data.id])).toEqual([['cancelled', 'cancelled', payment.id]]);
      expect(client.events()[0].id).toMatch(/^[0-9]+$/);
    }
    // The merchant-wide stream carries received payments only.
    await pay(1_234);
    await merchantStream.until((c) => c.events().length >= 1);
    expect(merchantStream.events().map((e) => e.event)).toEqual(['transaction.success']);
  });

  it('N concurrent identical bank events for one bill: one paid, one transaction, one feed row, one SSE `paid`, one push', async () => {
    const token = `push-once-${randomUUID()}`;
    await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers: bearer(owner),
      payload: { push_token: token, device_id: `device-${randomUUID()}` },
    });
    const payment = await createPayment({ outlet_id: PUSAT.id, amount: 61_000 });
    const perPayment = await open(`${base}/merchant/poslite/payments/qris/${payment.id}/events`, bearer(owner));
    const merchantStream = await open(`${secondBase}/merchant/payments/events`, bearer(owner));
    await perPayment.until((c) => c.frames.some((f) => f.comment === 'keep-alive'));
    const id = `evt-same-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        bankEvent({ external_event_id: id, transaction_code: `TRX-${id}`, reference_number: payment.bill_number, gross_amount: 61_000 }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect(answers.filter((r) => r.json().status === 'success')).toHaveLength(1);

    await perPayment.until((c) => c.ended);
    expect(perPayment.events().map((e) => e.event)).toEqual(['paid']);
    await merchantStream.until((c) => c.events().some((e) => e.data.qris_payment?.id === payment.id));
    const toOwner = () =>
      push.requests.filter((r) => r.json?.message?.token === token && r.json.message.data.qris_payment_id === payment.id);
    const deadline = Date.now() + 5000;
    while (toOwner().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    expect(merchantStream.events().filter((e) => e.data.qris_payment?.id === payment.id)).toHaveLength(1);
    expect(toOwner()).toHaveLength(1);
    expect(
      await sql(
        `select (select count(*)::int from "transaction".transactions where transaction_code = $1) as transactions,
                (select count(*)::int from "transaction".payment_feed where qris_payment_id = $2) as feed_rows,
                (select status from "transaction".qris_payments where id = $2) as status,
                (select count(*)::int from "transaction".qris_unmatched_payments where bill_number = $3) as unmatched`,
        [`TRX-${id}`, payment.id, payment.bill_number],
      ),
    ).toEqual([{ transactions: 1, feed_rows: 1, status: 'paid', unmatched: 0 }]);
  });

  it('limits open streams per user (429)', async () => {
    const member = await posMember(stack, A, 'viewer');
    const streams = await Promise.all(Array.from({ length: 10 }, () => open(`${base}/merchant/payments/events`, bearer(member))));
    expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200));
    const over = await open(`${base}/merchant/payments/events`, bearer(member));
    expect([over.status, over.frames[0].data.code]).toEqual([429, 'rate_limit_exceeded']);
    streams[0].close();
    await new Promise((r) => setTimeout(r, 200));
    expect((await open(`${base}/merchant/payments/events`, bearer(member))).status).toBe(200);
  });
});
