import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { apiPagesDir } from '@lib/rest/api-pages';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { isSandboxNmid } from '@lib/domain/sandbox/sandbox-nmid';
import { jakartaNow } from '../support/bank-events';
import { sessionFor } from '../support/core-auth';
import { gql, operatorHeaders } from '../support/graphql';
import { HttpRecorder } from '../support/http-recorder';
import { ops } from '../support/ops-cli';
import { hmacHex, rfc3339Now } from '../support/route-requests';
import { SseClient } from '../support/sse-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

interface IssuedSandboxBank {
  bank_code: string;
  sandbox: boolean;
  lookup_key_id: string;
  lookup_secret: string;
  event_key_id: string;
  event_secret: string;
  merchant: { merchant_id: string; sandbox: boolean; owner_phone: string; outlets: { outlet_id: string; code: string; nmid: string }[] };
}

/**
 * The sandbox (issue 16 §3, docs/decisions/0015-demo-data-and-sandbox.md) over the whole stack: sandbox bank and partner credentials
 * issued with `npm run ops` and the operator mutations; a simulated payment (internal endpoint and ops command) arrives
 * on a sandbox merchant's live stream, settles its dynamic QRIS and is pushed, exactly as a bank's event; sandbox keys
 * reach nothing live; and every live bank, partner and operator view is byte-identical before and after.
 */
describe('Sandbox (issue 16 §3)', () => {
  let stack: TestStack;
  let base: string;
  let push: HttpRecorder;
  let env: NodeJS.ProcessEnv;
  let operator: { authorization: string };
  let bank: IssuedSandboxBank;
  let partner: { code: string; credentialKey: string; secret: string };
  let owner: { authorization: string };
  let liveBefore: Record<string, unknown>;
  const clients: SseClient[] = [];
  const OWNER_PHONE = '+6281299001601';
  const sql = <T extends object = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);

  /** A bank request signed with one of its keys (psp-api.md §5). */
  const signed = (key: { id: string; secret: string; scheme: 'lookup' | 'event' }, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const raw = body === undefined ? '' : JSON.stringify(body);
    const timestamp = key.scheme === 'lookup' ? rfc3339Now() : jakartaNow();
    const signature = hmacHex(key.secret, `${method}\n${url}\n${timestamp}\n${raw}`);
    const headers: Record<string, string> =
      key.scheme === 'lookup'
        ? { 'x-api-key-id': key.id, 'x-timestamp': timestamp, 'x-signature': signature }
        : { 'x-psp-key-id': key.id, 'x-psp-timestamp': timestamp, 'x-psp-signature': signature, 'content-type': 'application/json' };
    return stack.rest.inject({ method, url, headers, ...(raw ? { payload: raw } : {}) });
  };
  const liveBankLookup = { id: DEMO.bank.lookupKeyId, secret: DEMO.bank.lookupSecret, scheme: 'lookup' as const };
  const sandboxLookup = () => ({ id: bank.lookup_key_id, secret: bank.lookup_secret, scheme: 'lookup' as const });
  const sandboxEvents = () => ({ id: bank.event_key_id, secret: bank.event_secret, scheme: 'event' as const });

  const partnerToken = async (credentialKey: string, secret: string) => {
    const res = await stack.rest.inject({
      method: 'POST',
      url: '/api/partner/v1/auth/token',
      payload: { credential_key: credentialKey, credential_secret: secret },
    });
    expect(res.statusCode).toBe(200);
    return { authorization: `Bearer ${res.json().access_token}` };
  };
  const simulate = (body: Record<string, unknown>) =>
    stack.rest.inject({
      method: 'POST',
      url: '/internal/sandbox/payment-events',
      headers: { 'x-internal-api-key': stack.config.secrets.internalApiKey },
      payload: body,
    });
  const open = async (path: string, headers: Record<string, string>) => {
    const client = await SseClient.open(`${base}${path}`, headers);
    clients.push(client);
    return client;
  };

  /** What the live tenants and operators see: the demo bank's and partner's views, the operators' lists. */
  const liveViews = async () => {
    const demoPartner = await partnerToken(DEMO.partner.credentials.contractA.credentialKey, DEMO.partner.credentials.contractA.secret);
    const partnerGet = async (url: string) => (await stack.rest.inject({ method: 'GET', url, headers: demoPartner })).body;
    const bankGet = async (url: string) => (await signed(liveBankLookup, 'GET', url)).body;
    const operatorLists = await gql(
      stack,
      `{ merchantSearch(first: 100) { items { id merchantCode status sandbox bankCode } hasMore }
         banks { code tier sandbox }
         partners { code status sandbox credentials { credentialKey status } }
         webhookDeliveries(first: 200) { eventId event bankCode merchantId status }
         registrationQueue(first: 200) { id } }`,
      {},
      operator,
    );
    expect(operatorLists.errors).toBeUndefined();
    return {
      bankMerchants: await bankGet('/api/psp/v1/merchants?limit=100'),
      bankSearch: await bankGet('/api/psp/v1/merchants/search?phone=%2B6281234567890'),
      bankByNmid: await bankGet(`/api/psp/v1/merchants/by-nmid/${DEMO.outlets[0].nmid}?include_outlets=true`),
      partnerReferrals: await partnerGet(`/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants`),
      partnerSummary: await partnerGet(`/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants/summary`),
      partnerScoring: await partnerGet(`/api/partner/v1/merchants/${DEMO.merchantId}/scoring-summary`),
      partnerTransactions: await partnerGet(`/api/partner/v1/merchants/${DEMO.merchantId}/transactions`),
      operator: JSON.stringify(operatorLists.data),
      liveRows: JSON.stringify(
        await sql(
          `with sb as (select code from merchant.banks where sandbox), sm as (select id from merchant.merchants where sandbox)
           select (select count(*) from "transaction".transactions where bank_code not in (select code from sb))::int as transactions,
                  (select count(*) from "transaction".payment_events where bank_code not in (select code from sb))::int as events,
                  (select count(*) from "transaction".settlements where bank_code not in (select code from sb))::int as settlements,
                  (select count(*) from "transaction".payment_feed where merchant_id not in (select id from sm))::int as feed,
                  (select count(*) from merchant.partner_merchant_access where not sandbox)::int as grants,
                  (select coalesce(sum(count), 0) from "transaction".merchant_daily_rollups
                    where merchant_id not in (select id from sm))::int as rollups`,
        ),
      ),
    };
  };

  beforeAll(async () => {
    push = await new HttpRecorder(() => ({ status: 200, body: { name: `projects/demo/messages/${randomUUID()}` } })).start();
    stack = await startTestStack({
      REDIS_URL: 'redis://127.0.0.1:6379',
      PUSH_PROVIDER_URL: `${push.url}/v1/send`,
      PUSH_PROVIDER_TOKEN: 'push-token',
      LIVE_KEEPALIVE_MS: '300',
      // Long: events must arrive by the feed's signal, as a real bank's do.
      LIVE_POLL_MS: '120000',
    });
    base = await stack.rest.listen({ host: '127.0.0.1', port: 0 });
    env = { ...process.env, DATABASE_URL: stack.database.adminUrl, GATEWAY_URL: stack.gatewayUrl, NODE_ENV: 'development' };
    operator = await operatorHeaders(stack, ['admin']);
    liveBefore = await liveViews();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await stack?.close();
    await push?.stop();
  });

  it('issues sandbox credentials (ops and the operator mutations): a sandbox bank with its sandbox merchant and NMIDs, a sandbox partner', async () => {
    const created = await ops(
      ['bank:create', '--code', 'SBXT', '--name', 'Bank Uji Sandbox', '--sandbox', '--outlets', '2', '--owner-phone', '081299001601'],
      env,
    );
    expect(created).toMatchObject({ code: 0, stderr: [] });
    bank = created.stdout!.result as IssuedSandboxBank;
    expect(bank).toMatchObject({ bank_code: 'SBXT', sandbox: true, merchant: { sandbox: true, owner_phone: OWNER_PHONE } });
    expect(bank.merchant.outlets).toHaveLength(2);
    expect(bank.merchant.outlets.filter((o) => !isSandboxNmid(o.nmid))).toEqual([]);
    const [ownerRow] = await sql<{ id: string }>(
      `select u.id from merchant.users u join merchant.merchant_users mu on mu.user_id = u.id
        where u.phone = $1 and mu.merchant_id = $2 and mu.role = 'owner'`,
      [OWNER_PHONE, bank.merchant.merchant_id],
    );
    owner = await sessionFor(stack, ownerRow.id);

    const madePartner = await ops(
      ['partner:create', '--code', 'PSBXT', '--name', 'Partner Uji', '--referral-code', 'SBXTREF', '--sandbox'],
      env,
    );
    expect(madePartner.stdout!.result).toMatchObject({ partner_code: 'PSBXT', sandbox: true });
    const granted = await ops(
      ['partner:grant', '--partner', 'PSBXT', '--merchant', bank.merchant.merchant_id, '--type', 'assignment'],
      env,
    );
    expect(granted.code).toBe(0);
    const credential = await ops(
      ['partner:credential', '--partner', 'PSBXT', '--contract', 'A', '--scopes', 'merchant.read,transaction.read,scoring.read'],
      env,
    );
    expect(credential.stdout!.result).toMatchObject({ sandbox: true, contract: 'A' });
    partner = {
      code: 'PSBXT',
      credentialKey: credential.stdout!.result.credential_key,
      secret: credential.stdout!.result.credential_secret,
    };

    // The operator mutations issue sandbox credentials too; a sandbox bank is never the tier-1 PSP.
    const viaGraph = await gql(
      stack,
      `mutation { createBank(code: "SBXG", name: "Bank Sandbox Graph", tier: "external", sandbox: true) { bankCode sandbox lookupKeyId }
                  createPartner(code: "PSBXG", name: "Partner Sandbox Graph", referralCode: "SBXGREF", sandbox: true) { partnerCode sandbox } }`,
      {},
      operator,
    );
    expect(viaGraph.data).toMatchObject({
      createBank: { bankCode: 'SBXG', sandbox: true },
      createPartner: { partnerCode: 'PSBXG', sandbox: true },
    });
    const tier1 = await ops(['bank:create', '--code', 'SBXX', '--name', 'X', '--tier', 'tier1', '--sandbox'], env);
    expect([tier1.code, tier1.stderr[0].error.code]).toEqual([2, 'invalid_option']);
    expect(await sql(`select 1 from merchant.banks where code = 'SBXX'`)).toEqual([]);

    // Operators see sandbox rows only when they ask for them.
    const lists = await gql(
      stack,
      `{ live: merchantSearch(first: 100) { items { id } } sandbox: merchantSearch(first: 100, sandbox: true) { items { id sandbox bank { code sandbox } } }
         sandboxBanks: banks(sandbox: true) { code } sandboxPartners: partners(sandbox: true) { code } }`,
      {},
      operator,
    );
    expect(lists.data.live.items.map((m: { id: string }) => m.id)).not.toContain(bank.merchant.merchant_id);
    expect(lists.data.sandbox.items).toEqual(
      expect.arrayContaining([{ id: bank.merchant.merchant_id, sandbox: true, bank: { code: 'SBXT', sandbox: true } }]),
    );
    expect(lists.data.sandboxBanks.map((b: { code: string }) => b.code)).toEqual(['BSANDBOX', 'SBXG', 'SBXT']);
    expect(lists.data.sandboxPartners.map((p: { code: string }) => p.code)).toEqual(['PSANDBOX', 'PSBXG', 'PSBXT']);
  });

  it('a sandbox bank reaches its own sandbox merchants and nothing live; a live bank never sees them', async () => {
    const list = await signed(sandboxLookup(), 'GET', '/api/psp/v1/merchants?limit=100');
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((m: { id: string }) => m.id)).toEqual([bank.merchant.merchant_id]);
    for (const url of [`/api/psp/v1/merchants/${DEMO.merchantId}`, `/api/psp/v1/merchants/by-nmid/${DEMO.outlets[0].nmid}`]) {
      const res = await signed(sandboxLookup(), 'GET', url);
      expect([res.statusCode, res.json().code]).toEqual([404, 'not_found']);
    }
    expect((await signed(sandboxLookup(), 'GET', '/api/psp/v1/merchants/search?phone=%2B6281234567890')).json().items).toEqual([]);
    for (const url of [
      `/api/psp/v1/merchants/${bank.merchant.merchant_id}`,
      `/api/psp/v1/merchants/by-nmid/${bank.merchant.outlets[0].nmid}`,
    ]) {
      expect((await signed(liveBankLookup, 'GET', url)).statusCode).toBe(404);
    }

    // Its events and settlements for a live NMID are unknown_nmid: stored as its own, applied to nothing live.
    const liveTransactions = () =>
      sql(`select count(*)::int as n from "transaction".transactions where merchant_id = $1`, [DEMO.merchantId]);
    const before = await liveTransactions();
    const event = await signed(sandboxEvents(), 'POST', '/psp/v1/events', {
      external_event_id: `SBXT-LIVE-${randomUUID()}`,
      event_type: 'qris.payment.success',
      nmid: DEMO.outlets[0].nmid,
      gross_amount: 10_000,
      transaction_code: `TRX-SBXT-${randomUUID()}`,
      transaction_at: jakartaNow(),
      status: 'success',
    });
    expect([event.statusCode, event.json().code]).toEqual([422, 'unknown_nmid']);
    const settlement = await signed(sandboxEvents(), 'POST', '/psp/v1/settlements', {
      external_event_id: `SBXT-SET-${randomUUID()}`,
      settlement_id: `SBXT-SET-${randomUUID()}`,
      nmid: DEMO.outlets[0].nmid,
      bank_code: 'SBXT',
      gross_amount: 10_000,
      mdr_total: 70,
      net_amount: 9_930,
      settlement_date: jakartaNow().slice(0, 10),
      completed_at: jakartaNow(),
    });
    expect([settlement.statusCode, settlement.json().code]).toEqual([422, 'unknown_nmid']);
    expect(await liveTransactions()).toEqual(before);
  });

  it('a sandbox partner reaches only sandbox merchants; a live partner never reaches them; grants never mix the modes', async () => {
    const sandboxPartner = await partnerToken(partner.credentialKey, partner.secret);
    const get = (headers: Record<string, string>, url: string) => stack.rest.inject({ method: 'GET', url, headers });
    expect((await get(sandboxPartner, `/api/partner/v1/merchants/${bank.merchant.merchant_id}/scoring-summary`)).statusCode).toBe(200);
    for (const url of [
      `/api/partner/v1/merchants/${DEMO.merchantId}/transactions`,
      `/api/partner/v1/merchants/${DEMO.merchantId}/scoring-summary`,
    ]) {
      const res = await get(sandboxPartner, url);
      expect([res.statusCode, res.json().code]).toEqual([403, 'forbidden']);
    }
    const [{ partner_id: partnerId }] = await sql<{ partner_id: string }>(
      `select id as partner_id from merchant.partners where code = 'PSBXT'`,
    );
    const referrals = await get(sandboxPartner, `/api/partner/v1/partners/${partnerId}/referral-merchants`);
    expect(referrals.json().items.map((i: { merchant_id: string }) => i.merchant_id)).toEqual([bank.merchant.merchant_id]);

    const livePartner = await partnerToken(DEMO.partner.credentials.contractA.credentialKey, DEMO.partner.credentials.contractA.secret);
    expect((await get(livePartner, `/api/partner/v1/merchants/${bank.merchant.merchant_id}/transactions`)).statusCode).toBe(403);
    const crossed = await ops(
      ['partner:grant', '--partner', DEMO.partner.code, '--merchant', bank.merchant.merchant_id, '--type', 'consent'],
      env,
    );
    expect([crossed.code, crossed.stderr[0].error.message]).toEqual([1, 'sandbox partner PDEMO not found']);
    // The database refuses a mixed grant whatever writes it (composite foreign keys).
    await expect(
      sql(
        `insert into merchant.partner_merchant_access (id, partner_id, merchant_id, access_type, granted_at, sandbox)
         values (gen_random_uuid(), $1, $2, 'assignment', now(), false)`,
        [DEMO.partner.id, bank.merchant.merchant_id],
      ),
    ).rejects.toThrow(/foreign key/);
  });

  it('the internal endpoint and the ops command simulate a bank payment: it arrives on the merchant’s live stream and is pushed', async () => {
    const token = `push-sandbox-${randomUUID()}`;
    const registered = await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers: owner,
      payload: { push_token: token, device_id: `device-${randomUUID()}` },
    });
    expect(registered.statusCode).toBe(200);
    const stream = await open('/merchant/payments/events', owner);
    expect(stream.status).toBe(200);
    await stream.until((c) => c.frames.some((f) => f.comment === 'keep-alive'));

    const [pusat, cabang] = bank.merchant.outlets;
    const viaEndpoint = await simulate({ nmid: pusat.nmid, amount: 25_000 });
    expect(viaEndpoint.statusCode).toBe(200);
    expect(viaEndpoint.json()).toMatchObject({
      status: 'success',
      flow: 'transaction.created',
      bank_code: 'SBXT',
      merchant_id: bank.merchant.merchant_id,
      outlet_id: pusat.outlet_id,
      event: { event_type: 'qris.payment.success', nmid: pusat.nmid, gross_amount: 25_000 },
    });
    const viaOps = await ops(['sandbox:simulate-payment', '--nmid', cabang.nmid, '--amount', '12345'], env);
    expect(viaOps).toMatchObject({ code: 0, stderr: [], stdout: { result: { status: 'success', outlet_id: cabang.outlet_id } } });

    await stream.until((c) => c.events().length >= 2);
    expect(stream.events().map((e) => [e.event, e.data.merchant_id, e.data.outlet_id, e.data.amount])).toEqual([
      ['transaction.success', bank.merchant.merchant_id, pusat.outlet_id, 25_000],
      ['transaction.success', bank.merchant.merchant_id, cabang.outlet_id, 12_345],
    ]);
    const pushed = () => push.requests.filter((r) => r.json?.message?.token === token);
    const deadline = Date.now() + 5000;
    while (pushed().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(
      pushed()
        .map((r) => r.json.message.notification.body)
        .sort(),
    ).toEqual(['Pembayaran diterima Rp12.345', 'Pembayaran diterima Rp25.000']);
  });

  it('a simulated event with the bill number marks a pending dynamic QRIS of a sandbox outlet paid, on its stream', async () => {
    const [pusat] = bank.merchant.outlets;
    const created = await stack.rest.inject({
      method: 'POST',
      url: '/merchant/poslite/payments/qris',
      headers: owner,
      payload: { outlet_id: pusat.outlet_id, amount: 31_000 },
    });
    expect(created.statusCode).toBe(201);
    const payment = created.json();
    const stream = await open(`/merchant/poslite/payments/qris/${payment.id}/events`, owner);
    await stream.until((c) => c.frames.some((f) => f.comment === 'keep-alive'));

    const paid = await simulate({ nmid: pusat.nmid, amount: 31_000, reference_number: payment.bill_number });
    expect(paid.statusCode).toBe(200);
    await stream.until((c) => c.events().length > 0 && c.ended);
    expect(stream.events()[0]).toMatchObject({ event: 'paid', data: { id: payment.id, status: 'paid', amount: 31_000 } });
    const read = await stack.rest.inject({ method: 'GET', url: `/merchant/poslite/payments/qris/${payment.id}`, headers: owner });
    expect(read.json()).toMatchObject({ status: 'paid' });
  });

  it('refuses a live NMID (403 `live_nmid`, ops exit 1 with that code) and an unknown one (404), writing nothing', async () => {
    const before = await stack.database.tableCounts();
    const live = await simulate({ nmid: DEMO.outlets[0].nmid, amount: 5_000 });
    expect([live.statusCode, live.json().code]).toEqual([403, 'live_nmid']);
    const viaOps = await ops(['sandbox:simulate-payment', '--nmid', DEMO.outlets[0].nmid, '--amount', '5000'], env);
    expect([viaOps.code, viaOps.stdout, viaOps.stderr[0].error.code]).toEqual([1, null, 'live_nmid']);
    const unknown = await simulate({ nmid: 'ID990000000009999', amount: 5_000 });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'not_found']);
    const bad = await ops(['sandbox:simulate-payment', '--nmid', bank.merchant.outlets[0].nmid, '--amount', '12.5'], env);
    expect([bad.code, bad.stderr[0].error.code]).toEqual([2, 'invalid_option']);
    expect(await stack.database.tableCounts()).toEqual(before);
  });

  it('a replayed simulation (same event id, endpoint or ops) is duplicate_skipped: one event, one transaction, one feed row', async () => {
    const eventId = `SBX-REPLAY-${randomUUID().slice(0, 8)}`;
    const nmid = bank.merchant.outlets[0].nmid;
    const answers = await Promise.all([
      simulate({ nmid, amount: 7_000, event_id: eventId }),
      simulate({ nmid, amount: 7_000, event_id: eventId }),
    ]);
    const again = await ops(['sandbox:simulate-payment', '--nmid', nmid, '--amount', '7000', '--event-id', eventId], env);
    const statuses = [...answers.map((a) => a.json().status), again.stdout!.result.status].sort();
    expect(statuses).toEqual(['duplicate_skipped', 'duplicate_skipped', 'success']);
    expect(new Set([...answers.map((a) => a.json().event_id), again.stdout!.result.event_id]).size).toBe(1);
    const [rows] = await sql<{ events: number; transactions: number; feed: number }>(
      `select (select count(*) from "transaction".payment_events where bank_code = 'SBXT' and external_event_id = $1)::int as events,
              (select count(*) from "transaction".transactions where bank_code = 'SBXT' and transaction_code = $2)::int as transactions,
              (select count(*) from "transaction".payment_feed f join "transaction".transactions t on t.id = f.transaction_id
                where t.bank_code = 'SBXT' and t.transaction_code = $2)::int as feed`,
      [eventId, `TRX-${eventId}`],
    );
    expect(rows).toEqual({ events: 1, transactions: 1, feed: 1 });
  });

  it('the API guide’s sandbox curl (docs/api/sandbox.md) simulates a payment to the demo sandbox merchant', async () => {
    const [block] = [...readFileSync(path.join(apiPagesDir(), 'sandbox.md'), 'utf8').matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block], {
      env: { ...process.env, BASE: base },
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({
      status: 'success',
      bank_code: DEMO.sandbox.bank.code,
      merchant_id: DEMO.sandbox.merchantId,
    });
  });

  it('the API guide’s sandbox bank curl (docs/api/sandbox.md): payment, settlement, clock and reset signed with ek_sandbox', async () => {
    const [, block] = [...readFileSync(path.join(apiPagesDir(), 'sandbox.md'), 'utf8').matchAll(/```bash\n([\s\S]*?)```/g)].map(
      (m) => m[1],
    );
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block], {
      env: { ...process.env, BASE: base },
      timeout: 20_000,
    });
    const [payment, settlement, advanced, clock, reset] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(payment).toMatchObject({ status: 'success', bank_code: DEMO.sandbox.bank.code, merchant_id: DEMO.sandbox.merchantId });
    expect(settlement).toMatchObject({ status: 'success', reconciled: true, settlement: { nmid: DEMO.sandbox.outlets[0].nmid } });
    expect(settlement.matched_count).toBeGreaterThanOrEqual(1);
    expect([advanced.offset_secs, clock.offset_secs]).toEqual([3600, 3600]);
    expect(reset).toMatchObject({ merchant_ids: [DEMO.sandbox.merchantId], deleted: { settlements: 1 } });
    expect(reset.deleted.transactions).toBeGreaterThanOrEqual(1);
  });

  it('every live bank, partner and operator list, search, score, count and rollup is byte-identical after the sandbox activity', async () => {
    expect(await liveViews()).toEqual(liveBefore);
  });
});
