import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { projectRoot } from '@lib/config/project-root';
import { ZonedCalendar, addDays } from '@lib/time/zoned-time';
import { demoBankSignedRequest, postDemoBankEvent } from '../support/bank-events';
import { codes, gql, memberHeaders, operatorHeaders } from '../support/graphql';
import { ops } from '../support/ops-cli';
import { type PosActor, posMember, pushSalesOrder } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const JAKARTA = new ZonedCalendar('Asia/Jakarta');
const M = DEMO.otherMerchants[1];
const [GAMBIR, CIDENG, PETOJO] = M.outlets;
/** Yesterday and three days ago in Jakarta: after the demo history of this merchant (it ends four days ago). */
const D1 = addDays(JAKARTA.dateOf(new Date()), -1);
const D0 = addDays(JAKARTA.dateOf(new Date()), -3);
const at = (day: string, time: string) => new Date(`${day}T${time}+07:00`);
const APP_RECONCILIATION = readFileSync(join(projectRoot(), 'gateway/app-operations/AppReconciliation.graphql'), 'utf8');
const DIFFERENCE_FIELDS = 'id class subject resolution note resolvedBy clearedAt audit { action resolution note actor }';

/**
 * The daily reconciliation (issue 50 §3, docs/decisions/0242-daily-reconciliation.md) through the public surface: a
 * bank's events and settlements signed as the bank sends them, a device's point-of-sale pushes, a dynamic QRIS paid
 * by its bill number, the real job workers (the catalog's order facts, the settlement's arrival run), the operator
 * CLI's run of a whole day, the app's REST route and GraphQL, and an operator's audited resolution. Every class of
 * difference occurs; the figures are checked against sums the test computes from what it sent.
 */
describe('Daily reconciliation (issue 50 §3)', () => {
  let stack: TestStack;
  let owner: PosActor;
  let opsEnv: NodeJS.ProcessEnv;
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);
  const until = async (done: () => Promise<boolean>, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await done()).toBe(true);
  };
  /** Gross amounts sent, by outlet, of day D1. */
  const sent = { gambir: [] as number[], cideng: [] as number[] };
  const ids: Record<string, string> = {};

  const pay = async (name: string, nmid: string, amount: number, when: Date, extra: Record<string, unknown> = {}) => {
    const id = `evt-recon-${name}-${randomUUID()}`;
    const res = await postDemoBankEvent(stack, {
      external_event_id: id,
      transaction_code: `TRX-${id}`,
      gross_amount: amount,
      nmid,
      transaction_at: when.toISOString().replace('Z', '+00:00'),
      ...extra,
    });
    expect(res.statusCode).toBe(200);
    const [{ id: transactionId }] = await sql<{ id: string }>(`select id from "transaction".transactions where transaction_code = $1`, [
      `TRX-${id}`,
    ]);
    ids[name] = transactionId;
    return transactionId;
  };
  const fees = async (names: string[]) =>
    Number(
      (
        await sql<{ fee: string }>(
          `select coalesce(sum(mdr_fee_amount), 0) as fee from "transaction".transactions where id = any($1::uuid[])`,
          [names.map((n) => ids[n])],
        )
      )[0].fee,
    );
  const settle = async (name: string, nmid: string, day: string, gross: number, mdr: number) => {
    const body = {
      external_event_id: `stl-evt-${name}-${randomUUID()}`,
      settlement_id: `STL-${name}-${randomUUID()}`,
      nmid,
      bank_code: DEMO.bank.code,
      gross_amount: gross,
      mdr_total: mdr,
      net_amount: gross - mdr,
      settlement_date: day,
      completed_at: new Date().toISOString(),
    };
    const res = await stack.rest.inject({
      method: 'POST',
      url: '/psp/v1/settlements',
      ...demoBankSignedRequest('/psp/v1/settlements', body),
    });
    expect(res.statusCode).toBe(200);
    ids[name] = res.json().settlement_ref;
    return body;
  };
  const route = async (headers: Record<string, string>, query: string) =>
    stack.rest.inject({ method: 'GET', url: `/merchant/reconciliation?${query}`, headers });

  beforeAll(async () => {
    stack = await startTestStack(
      {
        JOBS_POLL_INTERVAL_MS: '100',
        RECONCILIATION_STATIC_MATCH_MINUTES: '10',
        // D1's settlements are due 48 hours after D1 ends (the end of tomorrow), so they stay on time if the file runs across
        // a Jakarta midnight; D0's (three days ago) is late whenever it runs.
        RECONCILIATION_SETTLEMENT_DUE_HOURS: '48',
      },
      { own: true },
    );
    opsEnv = { ...process.env, NODE_ENV: 'test', DATABASE_URL: stack.database.adminUrl };
    owner = await posMember(stack, M.id, 'owner');

    // The point of sale on D1 at Gambir: two static QRIS sales, one never paid, and one paid by a dynamic QRIS.
    const order = (total: number, when: Date, method = 'qris') =>
      pushSalesOrder(stack, owner, {
        outletId: GAMBIR.id,
        status: 'completed',
        total,
        payments: [{ method, amount: total }],
        transactedAt: when,
      });
    ids.o1 = await order(50_000, at(D1, '10:02:00'));
    ids.o2 = await order(20_000, at(D1, '11:00:30'));
    ids.o3 = await order(15_000, at(D1, '13:00:00'));
    ids.cash = await order(99_000, at(D1, '14:00:00'), 'cash');
    ids.odyn = await pushSalesOrder(stack, owner, {
      outletId: GAMBIR.id,
      status: 'open',
      total: 33_000,
      payments: [],
      transactedAt: at(D1, '12:30:00'),
    });
    const qris = await stack.rest.inject({
      method: 'POST',
      url: '/merchant/poslite/payments/qris',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { outlet_id: GAMBIR.id, amount: 33_000, sales_order_id: ids.odyn },
    });
    expect(qris.statusCode).toBe(201);

    // The bank's payments of D1 (Gambir, Cideng) and D0 (Petojo).
    sent.gambir.push(50_000, 20_000, 30_000, 33_000);
    await pay('p1', GAMBIR.nmid, 50_000, at(D1, '10:00:00'));
    await pay('p2', GAMBIR.nmid, 20_000, at(D1, '11:00:00'));
    await pay('p3', GAMBIR.nmid, 30_000, at(D1, '12:00:00'), { mdr_fee_bank: 999 });
    await pay('pdyn', GAMBIR.nmid, 33_000, at(D1, '12:31:00'), { reference_number: qris.json().bill_number });
    sent.cideng.push(40_000);
    await pay('p5', CIDENG.nmid, 40_000, at(D1, '09:00:00'));
    await pay('p6', PETOJO.nmid, 12_500, at(D0, '15:00:00'));
    // The dynamic QRIS completes its order in the catalog (the REST process's settlement dispatcher).
    await until(async () => (await sql(`select status from catalog.sales_orders where id = $1`, [ids.odyn]))[0]?.status === 'completed');

    // Settlements: Gambir's with an MDR 5 above ours; Cideng's 5,000 above what it matched; Petojo's of D1 with no
    // payment, and of D0 late.
    await settle('s1', GAMBIR.nmid, D1, 133_000, (await fees(['p1', 'p2', 'p3', 'pdyn'])) + 5);
    await settle('s2', CIDENG.nmid, D1, 45_000, await fees(['p5']));
    await settle('s4', PETOJO.nmid, D1, 12_000, 84);
    await settle('s3', PETOJO.nmid, D0, 12_500, await fees(['p6']));
    // A payment after Gambir's settlement: nothing settles it.
    sent.gambir.push(10_000);
    await pay('p4', GAMBIR.nmid, 10_000, at(D1, '20:00:00'));
    // The orders reached the transaction process's copy.
    await until(
      async () =>
        (
          await sql(
            `select count(*)::int as n from "transaction".reconciliation_pos_orders where sales_order_id = any($1::uuid[]) and status = 'completed'`,
            [[ids.o1, ids.o2, ids.o3, ids.odyn]],
          )
        )[0].n === 4,
    );
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('at start, the transaction worker queues the next daily run once', async () => {
    const plans = await sql<{ run_at: Date }>(
      `select j.run_at from graphile_worker.jobs j where j.task_identifier = 'reconciliation.plan' and j.locked_at is null`,
    );
    expect(plans).toHaveLength(1);
    const { hour, minute } = stack.config.reconciliation.runAt;
    const local = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
    expect(JAKARTA.iso(new Date(plans[0].run_at))).toContain(`T${local}:00+07:00`);
  });

  it('a settlement reconciles its outlet-day on arrival (the job queue), late ones included', async () => {
    await until(
      async () =>
        (await sql(`select 1 from "transaction".reconciliation_days where outlet_id = $1 and business_day = $2`, [PETOJO.id, D0]))
          .length === 1,
    );
    const [late] = await sql(
      `select class, subject, reported_amount from "transaction".reconciliation_differences where outlet_id = $1 and business_day = $2`,
      [PETOJO.id, D0],
    );
    expect(late).toEqual({ class: 'late_settlement', subject: `settlement:${ids.s3}`, reported_amount: '12500' });
  });

  it('the ops command reconciles a whole day in one run and prints its time; the owner sees every class, with figures that add up', async () => {
    const run = await ops(['reconciliation:run', '--day', D1], opsEnv);
    expect(run.code).toBe(0);
    expect(run.stdout!.result).toMatchObject({ business_day: D1, outlet_days: expect.any(Number), elapsed_ms: expect.any(Number) });
    expect(run.stdout!.result.outlet_days).toBeGreaterThanOrEqual(3);

    const res = await route({ authorization: `Bearer ${owner.token}` }, `business_day=${D1}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.merchant_id).toBe(M.id);
    const byOutlet = Object.fromEntries(body.outlets.map((o: any) => [o.outlet_id, o]));
    expect(Object.keys(byOutlet).sort()).toEqual([GAMBIR.id, CIDENG.id, PETOJO.id].sort());
    const classes = (o: any) => o.differences.map((d: any) => `${d.class} ${d.subject}`).sort();
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

    const gambir = byOutlet[GAMBIR.id];
    expect(gambir.payments).toEqual({
      count: 5,
      gross_amount: sum(sent.gambir),
      mdr_fee_amount: await fees(['p1', 'p2', 'p3', 'pdyn', 'p4']),
      settled_count: 4,
      settled_gross_amount: sum(sent.gambir) - 10_000,
    });
    const s1Mdr = (await fees(['p1', 'p2', 'p3', 'pdyn'])) + 5;
    expect(gambir.settlement).toEqual({ count: 1, gross_amount: 133_000, mdr_amount: s1Mdr, net_amount: 133_000 - s1Mdr });
    // Four QRIS orders (the cash one is not): two static matched by amount and time, one dynamic by its bill number.
    expect(gambir.pos_orders).toEqual({ qris_count: 4, qris_amount: 50_000 + 20_000 + 15_000 + 33_000, matched_count: 3 });
    expect(classes(gambir)).toEqual(
      [
        `fee_deviation settlement:${ids.s1}`,
        `fee_deviation transaction:${ids.p3}`,
        `payment_without_settlement transaction:${ids.p4}`,
        `qris_order_without_payment order:${ids.o3}`,
        `unmatched_payment transaction:${ids.p3}`,
        `unmatched_payment transaction:${ids.p4}`,
      ].sort(),
    );
    expect(gambir).toMatchObject({ status: 'differences', difference_count: 6, open_difference_count: 6 });
    const fee = gambir.differences.find((d: any) => d.subject === `transaction:${ids.p3}` && d.class === 'fee_deviation');
    expect(fee).toMatchObject({ reported_amount: 999, expected_amount: await fees(['p3']), difference_amount: 999 - (await fees(['p3'])) });
    expect(gambir.differences.find((d: any) => d.class === 'qris_order_without_payment').detail).toMatchObject({ rule: 'amount_time' });

    const cideng = byOutlet[CIDENG.id];
    expect(classes(cideng)).toEqual([`amount_mismatch settlement:${ids.s2}`]);
    expect(cideng.differences[0]).toMatchObject({ expected_amount: sum(sent.cideng), reported_amount: 45_000, difference_amount: 5_000 });
    expect(cideng.payments).toMatchObject({ count: 1, gross_amount: sum(sent.cideng), settled_count: 1 });

    const petojo = byOutlet[PETOJO.id];
    expect(classes(petojo)).toEqual([`settlement_without_payment settlement:${ids.s4}`]);
    expect(petojo).toMatchObject({
      settlement: { count: 1, gross_amount: 12_000, mdr_amount: 84, net_amount: 11_916 },
      payments: { count: 0 },
    });

    // Every date-time in the app's zone.
    expect(gambir.reconciled_at).toMatch(/\+08:00$/);
  });

  it('admins and viewers see their outlets only; staff and other outlets are 403; bad input is a documented 400', async () => {
    const viewer = await memberHeaders(stack, M.id, 'viewer', [CIDENG.id]);
    const seen = await route(viewer.headers, `business_day=${D1}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().outlets.map((o: any) => o.outlet_id)).toEqual([CIDENG.id]);
    expect((await route(viewer.headers, `business_day=${D1}&outlet_id=${GAMBIR.id}`)).statusCode).toBe(403);
    const admin = await memberHeaders(stack, M.id, 'admin', [GAMBIR.id]);
    expect((await route(admin.headers, `business_day=${D1}`)).json().outlets.map((o: any) => o.outlet_id)).toEqual([GAMBIR.id]);
    const staff = await memberHeaders(stack, M.id, 'staff', [GAMBIR.id]);
    const refused = await route(staff.headers, `business_day=${D1}`);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'forbidden']);
    const bad = await route(admin.headers, 'business_day=2026-13-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'bad_request', error: expect.any(String) });
    // The app's GraphQL document answers the same as the route.
    const app = await gql(stack, APP_RECONCILIATION, { businessDay: D1, outletId: null }, viewer.headers);
    expect(app.errors).toBeUndefined();
    expect(app.data.myMerchant.reconciliationDays.map((d: any) => [d.outletId, d.differenceCount])).toEqual([[CIDENG.id, 1]]);
  });

  it('an operator resolves and annotates a difference, audited; bad input changes nothing; a re-run keeps it, adds no row, and clears what is gone', async () => {
    const operator = await operatorHeaders(stack, ['support'], 'recon-support');
    const [{ id: differenceId }] = await sql<{ id: string }>(
      `select id from "transaction".reconciliation_differences where subject = $1 and class = 'amount_mismatch'`,
      [`settlement:${ids.s2}`],
    );
    const ANNOTATE = `mutation($input: AnnotateReconciliationDifferenceInput!) { annotateReconciliationDifference(input: $input) { ${DIFFERENCE_FIELDS} } }`;
    const rows = async () => (await sql(`select count(*)::int as n from "transaction".reconciliation_audit`))[0].n;

    // Bad input and a role without the write: errors, nothing written.
    expect(codes(await gql(stack, ANNOTATE, { input: { differenceId, resolution: 'maybe' } }, operator))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await gql(stack, ANNOTATE, { input: { differenceId } }, operator))).toEqual(['BAD_USER_INPUT']);
    const reviewer = await operatorHeaders(stack, ['reviewer']);
    expect(codes(await gql(stack, ANNOTATE, { input: { differenceId, resolution: 'resolved' } }, reviewer))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(stack, ANNOTATE, { input: { differenceId: randomUUID(), note: 'x' } }, operator))).toEqual(['NOT_FOUND']);
    expect(await rows()).toBe(0);

    const resolved = await gql(
      stack,
      ANNOTATE,
      { input: { differenceId, resolution: 'resolved', note: 'Bank confirmed a 5,000 correction' } },
      operator,
    );
    expect(resolved.errors).toBeUndefined();
    expect(resolved.data.annotateReconciliationDifference).toMatchObject({
      resolution: 'resolved',
      note: 'Bank confirmed a 5,000 correction',
      resolvedBy: expect.stringMatching(/^operator:/),
      audit: [
        {
          action: 'resolved',
          resolution: 'resolved',
          note: 'Bank confirmed a 5,000 correction',
          actor: expect.stringMatching(/^operator:/),
        },
      ],
    });
    // The same change again writes nothing.
    await gql(stack, ANNOTATE, { input: { differenceId, resolution: 'resolved', note: 'Bank confirmed a 5,000 correction' } }, operator);
    expect(await rows()).toBe(1);

    // A re-run of the day: same ids, the resolution kept, no second row.
    const before = await sql(`select id, class, subject from "transaction".reconciliation_differences where merchant_id = $1 order by id`, [
      M.id,
    ]);
    expect((await ops(['reconciliation:run', '--day', D1], opsEnv)).code).toBe(0);
    expect(
      await sql(`select id, class, subject from "transaction".reconciliation_differences where merchant_id = $1 order by id`, [M.id]),
    ).toEqual(before);
    const owner2 = await route({ authorization: `Bearer ${owner.token}` }, `business_day=${D1}&outlet_id=${CIDENG.id}`);
    expect(owner2.json().outlets[0]).toMatchObject({
      difference_count: 1,
      open_difference_count: 0,
      differences: [{ id: differenceId, resolution: 'resolved', note: 'Bank confirmed a 5,000 correction', cleared_at: null }],
    });

    // The operator's view through the gateway: the merchant's day.
    const viewed = await gql(
      stack,
      `query($id: ID!, $day: String!) { merchant(id: $id) { reconciliationDays(businessDay: $day) { outletId differences { ${DIFFERENCE_FIELDS} } } } }`,
      { id: M.id, day: D1 },
      operator,
    );
    expect(viewed.errors).toBeUndefined();
    expect(viewed.data.merchant.reconciliationDays).toHaveLength(3);

    // An order for the unmatched payment arrives late (the device was offline): the day is reconciled again by the job
    // queue and the payment is matched now. The difference an operator annotated is kept as cleared; the late payment's
    // unsettled difference stays.
    const [{ id: unmatchedId }] = await sql<{ id: string }>(
      `select id from "transaction".reconciliation_differences where subject = $1 and class = 'unmatched_payment'`,
      [`transaction:${ids.p4}`],
    );
    expect(
      (await gql(stack, ANNOTATE, { input: { differenceId: unmatchedId, note: 'Asked the outlet for the receipt' } }, operator)).errors,
    ).toBeUndefined();
    await pushSalesOrder(stack, owner, {
      outletId: GAMBIR.id,
      status: 'completed',
      total: 10_000,
      payments: [{ method: 'QRIS', amount: 10_000 }],
      transactedAt: at(D1, '20:01:00'),
    });
    await until(
      async () =>
        (await sql(`select cleared_at from "transaction".reconciliation_differences where id = $1`, [unmatchedId]))[0].cleared_at !== null,
    );
    const gambir = (await route({ authorization: `Bearer ${owner.token}` }, `business_day=${D1}&outlet_id=${GAMBIR.id}`)).json().outlets[0];
    expect(gambir.pos_orders).toEqual({ qris_count: 5, qris_amount: 128_000, matched_count: 4 });
    expect(gambir.difference_count).toBe(5);
    expect(gambir.open_difference_count).toBe(5);
    expect(gambir.differences.find((d: any) => d.id === unmatchedId)).toMatchObject({
      class: 'unmatched_payment',
      note: 'Asked the outlet for the receipt',
      cleared_at: expect.stringMatching(/\+08:00$/),
    });
    expect(gambir.differences.map((d: any) => d.class)).toContain('payment_without_settlement');
  });
});
