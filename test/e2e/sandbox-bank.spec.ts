import { randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { jakartaNow } from '../support/bank-events';
import { gql, operatorHeaders } from '../support/graphql';
import { HttpRecorder } from '../support/http-recorder';
import { ops } from '../support/ops-cli';
import { hmacHex } from '../support/route-requests';
import { posMember } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * A sandbox bank's own sandbox (issue 49 §4, docs/decisions/0015-demo-data-and-sandbox.md): `/psp/v1/sandbox/…` signed with
 * its sandbox event key exactly as its live events; a live bank's key is 403 `live_bank`; bad input changes nothing;
 * replays store nothing twice; the clock brings a pending webhook retry and a dynamic QRIS expiry forward; reset
 * deletes only that sandbox's rows and restores its merchant; and every live row is byte-identical before and after.
 */
describe('Sandbox for banks (issue 49 §4)', () => {
  let stack: TestStack;
  let hooks: HttpRecorder;
  let bank: { code: string; keyId: string; secret: string; lookupKeyId: string; lookupSecret: string; merchantId: string; nmids: string[] };
  let liveBefore: Record<string, string>;
  let failHooks = true;
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);

  /** A request signed with an event key (psp-api.md §5), as a bank signs POST /psp/v1/events. */
  const signed = (key: { id: string; secret: string }, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const raw = body === undefined ? '' : JSON.stringify(body);
    const timestamp = jakartaNow();
    const headers: Record<string, string> = {
      'x-psp-key-id': key.id,
      'x-psp-timestamp': timestamp,
      'x-psp-signature': hmacHex(key.secret, `${method}\n${url}\n${timestamp}\n${raw}`),
      ...(raw ? { 'content-type': 'application/json' } : {}),
    };
    return stack.rest.inject({ method, url, headers, ...(raw ? { payload: raw } : {}) });
  };
  const asSandbox = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    signed({ id: bank.keyId, secret: bank.secret }, method, url, body);
  const asLive = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    signed({ id: DEMO.bank.eventKeyId, secret: DEMO.bank.eventSecret }, method, url, body);
  const until = async (done: () => boolean | Promise<boolean>, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };

  /** Every live row the sandbox routes could reach, as text: byte-identical or not. */
  const liveRows = async () => {
    const sandboxBanks = `(select code from merchant.banks where sandbox)`;
    const digest = async (table: string, where: string) =>
      (
        await sql<{ d: string }>(`select coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as d from ${table} t where ${where}`)
      )[0].d;
    return {
      transactions: await digest(`"transaction".transactions`, `bank_code not in ${sandboxBanks}`),
      events: await digest(`"transaction".payment_events`, `bank_code not in ${sandboxBanks}`),
      settlements: await digest(`"transaction".settlements`, `bank_code not in ${sandboxBanks}`),
      feed: await digest(`"transaction".payment_feed`, `coalesce(bank_code, '') not in ${sandboxBanks} and nmid !~ '^ID99'`),
      qris: await digest(`"transaction".qris_payments`, `nmid !~ '^ID99'`),
      rollups: await digest(
        `"transaction".merchant_daily_rollups`,
        `merchant_id not in (select merchant_id from "transaction".payment_target_merchants m join "transaction".payment_targets p using (merchant_id) where p.nmid ~ '^ID99')`,
      ),
      merchants: await digest(`merchant.merchants`, `not sandbox`),
      deliveries: await digest(`merchant.webhook_deliveries`, `bank_id in (select id from merchant.banks where not sandbox)`),
    };
  };

  beforeAll(async () => {
    hooks = await new HttpRecorder(() => (failHooks ? { status: 500, body: { ok: false } } : { status: 200, body: { ok: true } })).start();
    stack = await startTestStack({ JOBS_POLL_INTERVAL_MS: '100' }, { own: true });
    const env = { ...process.env, NODE_ENV: 'test', DATABASE_URL: stack.database.adminUrl };
    const created = await ops(['bank:create', '--code', 'SBXC', '--name', 'Bank Jam Sandbox', '--sandbox', '--outlets', '2'], env);
    expect(created.code).toBe(0);
    const issued = created.stdout!.result;
    bank = {
      code: 'SBXC',
      keyId: issued.event_key_id,
      secret: issued.event_secret,
      lookupKeyId: issued.lookup_key_id,
      lookupSecret: issued.lookup_secret,
      merchantId: issued.merchant.merchant_id,
      nmids: issued.merchant.outlets.map((o: { nmid: string }) => o.nmid),
    };
    const endpoint = await gql(
      stack,
      `mutation($url: String!) { setBankWebhookEndpoint(bankCode: "SBXC", url: $url) { bankCode } }`,
      { url: `${hooks.url}/hooks` },
      await operatorHeaders(stack, ['admin']),
    );
    expect(endpoint.errors).toBeUndefined();
    liveBefore = await liveRows();
  });
  afterAll(async () => {
    await stack?.close();
    await hooks?.stop();
  });

  it('a live bank’s key gets 403 live_bank on every sandbox route, and nothing is read or written', async () => {
    const before = await stack.database.tableCounts();
    for (const [method, url, body] of [
      ['POST', '/psp/v1/sandbox/payments', { nmid: bank.nmids[0], amount: 1000 }],
      ['POST', '/psp/v1/sandbox/settlements', { nmid: bank.nmids[0] }],
      ['GET', '/psp/v1/sandbox/clock', undefined],
      ['POST', '/psp/v1/sandbox/clock/advance', { seconds: 60 }],
      ['POST', '/psp/v1/sandbox/reset', undefined],
    ] as const) {
      const res = await asLive(method, url, body);
      expect([url, res.statusCode, res.json().code]).toEqual([url, 403, 'live_bank']);
    }
    // The sandbox bank's lookup key is not an event key: 401, as on /psp/v1/events.
    expect((await signed({ id: bank.lookupKeyId, secret: bank.lookupSecret }, 'GET', '/psp/v1/sandbox/clock')).statusCode).toBe(401);
    expect(await stack.database.tableCounts()).toEqual(before);
  });

  it('simulates payments and a settlement signed with the sandbox key; bad input changes nothing; replays store nothing twice', async () => {
    const before = await stack.database.tableCounts();
    for (const [url, body] of [
      ['/psp/v1/sandbox/payments', { nmid: bank.nmids[0], amount: 0 }],
      ['/psp/v1/sandbox/payments', { nmid: bank.nmids[0] }],
      ['/psp/v1/sandbox/settlements', { nmid: 'ID12345' }],
      ['/psp/v1/sandbox/clock/advance', { seconds: 0 }],
      ['/psp/v1/sandbox/clock/advance', { seconds: 30 * 86_400 + 1 }],
    ] as const) {
      const res = await asSandbox('POST', url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request', error: expect.any(String) });
    }
    // A live NMID or another bank's is unknown to a sandbox bank: 404.
    for (const nmid of [DEMO.outlets[0].nmid, DEMO.sandbox.outlets[0].nmid]) {
      const res = await asSandbox('POST', '/psp/v1/sandbox/payments', { nmid, amount: 1000 });
      expect([res.statusCode, res.json().code]).toEqual([404, 'not_found']);
    }
    expect(await stack.database.tableCounts()).toEqual(before);

    const eventId = `SBXC-${randomUUID().slice(0, 8)}`;
    const first = await asSandbox('POST', '/psp/v1/sandbox/payments', { nmid: bank.nmids[0], amount: 20_000, event_id: eventId });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'success', bank_code: 'SBXC', merchant_id: bank.merchantId });
    const replay = await asSandbox('POST', '/psp/v1/sandbox/payments', { nmid: bank.nmids[0], amount: 20_000, event_id: eventId });
    expect(replay.json()).toMatchObject({ status: 'duplicate_skipped', event_id: first.json().event_id });
    expect((await asSandbox('POST', '/psp/v1/sandbox/payments', { nmid: bank.nmids[0], amount: 5_000 })).statusCode).toBe(200);

    const settled = await asSandbox('POST', '/psp/v1/sandbox/settlements', { nmid: bank.nmids[0] });
    expect(settled.statusCode).toBe(200);
    expect(settled.json()).toMatchObject({
      status: 'success',
      matched_count: 2,
      matched_amount: 25_000,
      reconciled: true,
      settlement: { nmid: bank.nmids[0], bank_code: 'SBXC', gross_amount: 25_000 },
    });
    const again = await asSandbox('POST', '/psp/v1/sandbox/settlements', { nmid: bank.nmids[0] });
    expect(again.json()).toMatchObject({ status: 'duplicate_skipped', settlement_ref: settled.json().settlement_ref });
    const [rows] = await sql<{ events: number; transactions: number; settlements: number; unsettled: number }>(
      `select (select count(*) from "transaction".payment_events where bank_code = 'SBXC')::int as events,
              (select count(*) from "transaction".transactions where bank_code = 'SBXC')::int as transactions,
              (select count(*) from "transaction".settlements where bank_code = 'SBXC')::int as settlements,
              (select count(*) from "transaction".transactions where bank_code = 'SBXC' and settlement_status = 'unsettled')::int as unsettled`,
    );
    expect(rows).toEqual({ events: 2, transactions: 2, settlements: 1, unsettled: 0 });
  });

  it('the clock: advancing it makes a pending webhook retry happen now and a dynamic QRIS expire; GET shows the sandbox time', async () => {
    // A pending dynamic QRIS of the sandbox merchant (15 minutes).
    const owner = await posMember(stack, bank.merchantId, 'owner');
    const headers = { authorization: `Bearer ${owner.token}` };
    const [outlet] = await sql<{ id: string }>(`select id from outlet.outlets where nmid = $1`, [bank.nmids[1]]);
    const payment = await stack.rest.inject({
      method: 'POST',
      url: '/merchant/poslite/payments/qris',
      headers,
      payload: { outlet_id: outlet.id, amount: 15_000 },
    });
    expect(payment.statusCode).toBe(201);
    const qrisStatus = async () =>
      (await stack.rest.inject({ method: 'GET', url: `/merchant/poslite/payments/qris/${payment.json().id}`, headers })).json().status;
    expect(await qrisStatus()).toBe('pending');
    const liveQris = await sql(`select id, expires_at from "transaction".qris_payments where nmid !~ '^ID99' order by id`);

    // A lifecycle change of the sandbox merchant: merchant.suspended to the sandbox bank's endpoint, which fails.
    await changeStatus('suspended', 'operator_action');
    const deliveries = () =>
      sql<{ attempts: number; next_attempt_at: Date }>(
        `select d.attempts, d.next_attempt_at from merchant.webhook_deliveries d join merchant.banks b on b.id = d.bank_id where b.code = 'SBXC'`,
      );
    // The failed attempt is recorded after the receiver answered: wait for the row, not only the request.
    await until(async () => (await deliveries())[0]?.attempts === 1);
    expect(hooks.requests).toHaveLength(1);
    const [delivery] = await deliveries();
    expect(delivery.attempts).toBe(1);
    expect(new Date(delivery.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 15_000);

    failHooks = false;
    const advanced = await asSandbox('POST', '/psp/v1/sandbox/clock/advance', { seconds: 3600 });
    expect(advanced.statusCode).toBe(200);
    expect(advanced.json()).toMatchObject({ offset_secs: 3600, webhook_deliveries_moved: 1, qris_payments_moved: 1 });
    expect(new Date(advanced.json().now).getTime()).toBeGreaterThan(Date.now() + 3590_000);
    const clock = await asSandbox('GET', '/psp/v1/sandbox/clock');
    expect(clock.json().offset_secs).toBe(3600);

    // The retry is due now: attempted at once (the worker polls every 100 ms), delivered this time.
    await until(() => hooks.requests.length >= 2);
    expect(hooks.requests.map((r) => [r.json.event, r.json.merchant?.id])).toEqual([
      ['merchant.suspended', bank.merchantId],
      ['merchant.suspended', bank.merchantId],
    ]);
    expect(await qrisStatus()).toBe('expired');
    // Live dynamic QRIS payments did not move.
    expect(await sql(`select id, expires_at from "transaction".qris_payments where nmid !~ '^ID99' order by id`)).toEqual(liveQris);
  });

  it('reset deletes only the sandbox’s rows, restores its merchant, is idempotent, and every live row is byte-identical', async () => {
    // The merchant is still suspended (the clock spec): reset restores it.
    const reset = await asSandbox('POST', '/psp/v1/sandbox/reset');
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({
      merchant_ids: [bank.merchantId],
      merchants_restored: 1,
      deleted: { transactions: 2, payment_events: 2, settlements: 1, qris_payments: 1 },
    });
    expect(reset.json().deleted.webhook_deliveries).toBe(1);
    const [left] = await sql<Record<string, number | string>>(
      `select (select count(*) from "transaction".transactions where bank_code = 'SBXC')::int as transactions,
              (select count(*) from "transaction".payment_feed where merchant_id = $1)::int as feed,
              (select count(*) from "transaction".qris_payments where merchant_id = $1)::int as qris,
              (select count(*) from merchant.webhook_deliveries d join merchant.banks b on b.id = d.bank_id where b.code = 'SBXC')::int as deliveries,
              (select count(*) from merchant.sandbox_clocks c join merchant.banks b on b.id = c.bank_id where b.code = 'SBXC')::int as clocks,
              (select status from merchant.merchants where id = $1) as status,
              (select count(*) from outlet.outlets where merchant_id = $1 and nmid = any($2))::int as outlets`,
      [bank.merchantId, bank.nmids],
    );
    expect(left).toEqual({ transactions: 0, feed: 0, qris: 0, deliveries: 0, clocks: 0, status: 'active', outlets: 2 });
    expect((await asSandbox('GET', '/psp/v1/sandbox/clock')).json().offset_secs).toBe(0);
    const again = await asSandbox('POST', '/psp/v1/sandbox/reset');
    expect(again.json()).toEqual({
      merchant_ids: [bank.merchantId],
      merchants_restored: 0,
      deleted: { transactions: 0, payment_events: 0, settlements: 0, qris_payments: 0, webhook_deliveries: 0 },
    });
    // The sandbox works again from its issued state.
    expect((await asSandbox('POST', '/psp/v1/sandbox/payments', { nmid: bank.nmids[0], amount: 1_000 })).json().status).toBe('success');
    expect(await liveRows()).toEqual(liveBefore);
  });

  it('NMID changes are the production nmid.status_changed event, signed with the sandbox key: its own NMIDs only', async () => {
    const nmidStatus = async (nmid: string) =>
      (await sql<{ nmid_status: string }>(`select nmid_status from outlet.outlets where nmid = $1`, [nmid]))[0].nmid_status;
    const change = (nmid: string, from: string, to: string) =>
      asSandbox('POST', '/psp/v1/events', {
        external_event_id: `SBXC-NMID-${randomUUID().slice(0, 8)}`,
        event_type: 'nmid.status_changed',
        nmid,
        nmid_old_status: from,
        nmid_new_status: to,
        nmid_reason: 'sandbox review',
        transaction_at: jakartaNow(),
      });
    const suspended = await change(bank.nmids[1], 'active', 'suspended');
    expect([suspended.statusCode, suspended.json()]).toEqual([
      200,
      expect.objectContaining({ status: 'success', flow: 'nmid.status_changed', merchant_id: bank.merchantId }),
    ]);
    expect(await nmidStatus(bank.nmids[1])).toBe('suspended');
    expect((await change(bank.nmids[1], 'suspended', 'active')).statusCode).toBe(200);
    expect(await nmidStatus(bank.nmids[1])).toBe('active');
    // A live NMID is not the sandbox bank's: 422 unknown_nmid (recorded as its unapplied event), the live outlet untouched.
    const live = await change(DEMO.outlets[0].nmid, 'active', 'suspended');
    expect([live.statusCode, live.json().code]).toEqual([422, 'unknown_nmid']);
    expect(await nmidStatus(DEMO.outlets[0].nmid)).toBe('active');
    expect(await liveRows()).toEqual(liveBefore);
  });

  async function changeStatus(targetStatus: string, reason?: string) {
    const changed = await gql(
      stack,
      `mutation($input: ChangeMerchantStatusInput!) { changeMerchantStatus(input: $input) { status } }`,
      { input: { merchantId: bank.merchantId, targetStatus, ...(reason ? { reason } : {}) } },
      await operatorHeaders(stack, ['admin']),
    );
    expect(changed.errors).toBeUndefined();
  }
});
