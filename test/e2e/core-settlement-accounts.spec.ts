import { createHmac, randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { eventually } from '../support/eventually';
import { type GraphQLAnswer, codes, gql, memberHeaders, operatorHeaders } from '../support/graphql';
import { type HttpRecorder, type RecordedRequest, startMessageProviders } from '../support/http-recorder';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const M = DEMO.merchantId;
const [PUSAT, MENTENG] = DEMO.outlets;
/** Two seconds of cooling-off, so that a change becomes effective within the test. */
const COOLING_OFF_SECS = 2;

const SET = `mutation ($input: SetSettlementAccountInput!) {
  setSettlementAccount(input: $input) {
    outletId
    current { id source bankCode accountNumber accountNumberMasked holderName effectiveAt requestedBy }
    pending { id source bankCode accountNumber accountNumberMasked holderName effectiveAt requestedBy }
  }
}`;
const CANCEL = `mutation ($input: SettlementAccountScopeInput!) {
  cancelSettlementAccountChange(input: $input) { current { accountNumber } pending { accountNumber } }
}`;
const READ = `query {
  viewer { merchant {
    settlementAccount { current { accountNumber accountNumberMasked holderName } pending { accountNumber } }
    outlets { id effectiveSettlementAccount { source accountNumber accountNumberMasked } }
  } }
}`;

/**
 * Settlement accounts (issue 48 §4, docs/decisions/0238-settlement-accounts.md) through the gateway and the bank API,
 * on a stack of its own (a cooling-off of two seconds, local push, email and messaging receivers).
 */
describe('Settlement accounts: owner writes, cooling-off, alerts on every channel, the bank’s effective account', () => {
  let stack: TestStack;
  let messaging: HttpRecorder;
  let push: HttpRecorder;
  let email: HttpRecorder;
  let owner: { headers: { authorization: string }; userId: string };
  let ownerPhone: string;
  const ownerToken = `push-settlement-${randomUUID()}`;
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);

  const set = (headers: Record<string, string>, input: Record<string, unknown>): Promise<GraphQLAnswer> =>
    gql(stack, SET, { input }, headers);
  /** The demo bank's signed lookup (psp-api.md §5). */
  const bankDetail = async (path = `/api/psp/v1/merchants/${M}?include_outlets=true`) => {
    const timestamp = new Date().toISOString();
    const signature = createHmac('sha256', DEMO.bank.lookupSecret).update(`GET\n${path}\n${timestamp}\n`).digest('hex');
    const res = await stack.rest.inject({
      method: 'GET',
      url: path,
      headers: { 'x-api-key-id': DEMO.bank.lookupKeyId, 'x-timestamp': timestamp, 'x-signature': signature },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { outlets: { id: string; settlement_account: Record<string, string> | null }[] };
  };
  const accountOf = async (outletId: string) => (await bankDetail()).outlets.find((o) => o.id === outletId)!.settlement_account;
  const rowCounts = async () =>
    (
      await sql<{ accounts: number; audit: number; jobs: number }>(
        `select (select count(*)::int from outlet.settlement_accounts) as accounts,
                (select count(*)::int from outlet.settlement_account_audit) as audit,
                (select count(*)::int from graphile_worker.jobs where task_identifier = 'settlement_account.changed') as jobs`,
      )
    )[0];
  const pushesOf = (type: string, text = ''): RecordedRequest[] =>
    push.requests.filter(
      (r) =>
        r.json?.message?.token === ownerToken && r.json?.message?.data?.type === type && r.json.message.notification.body.includes(text),
    );

  beforeAll(async () => {
    const providers = await startMessageProviders();
    ({ messaging, push, email } = providers);
    stack = await startTestStack(
      {
        ...providers.env,
        SETTLEMENT_ACCOUNT_COOLING_OFF_HOURS: String(COOLING_OFF_SECS / 3600),
        // Bank lookups are cached 30 s; the cooling-off's end drops them through the invalidation relay (Redis).
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      },
      { own: true },
    );
    ownerPhone = '+6281299887766';
    owner = await memberHeaders(stack, M, 'owner', [], null, ownerPhone);
    await sql(`update merchant.users set email = 'pemilik@tokodemo.example', email_verified_at = now() where id = $1`, [owner.userId]);
    const saved = await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers: owner.headers,
      payload: { push_token: ownerToken, device_id: `device-${randomUUID()}` },
    });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([messaging, push, email].map((r) => r?.stop()));
  });

  it('refuses admins, staff and viewers (FORBIDDEN) and bad input (BAD_USER_INPUT), changing nothing', async () => {
    const before = await rowCounts();
    const good = { bankCode: '009', accountNumber: '0123456789', holderName: 'PT WARUNG KOPI DEMO' };
    for (const role of ['admin', 'staff', 'viewer'] as const) {
      const member = await memberHeaders(stack, M, role);
      expect(codes(await set(member.headers, good))).toEqual(['FORBIDDEN']);
      expect(codes(await gql(stack, CANCEL, { input: {} }, member.headers))).toEqual(['FORBIDDEN']);
    }
    expect(codes(await set(await operatorHeaders(stack, ['support']), { ...good, merchantId: M }))).toEqual(['FORBIDDEN']);
    for (const bad of [
      { ...good, bankCode: '14' },
      { ...good, bankCode: 'BCA' },
      { ...good, accountNumber: '12345' },
      { ...good, accountNumber: '1'.repeat(21) },
      { ...good, accountNumber: '01234x6789' },
      { ...good, holderName: 'A' },
      { ...good, holderName: 'X'.repeat(101) },
      { ...good, holderName: 'BUDI\u0000' },
      { ...good, outletId: 'not-a-uuid' },
    ]) {
      const answer = await set(owner.headers, bad);
      expect({ bad, codes: codes(answer) }).toEqual({ bad, codes: ['BAD_USER_INPUT'] });
    }
    // Another merchant's outlet is not found for this owner.
    expect(codes(await set(owner.headers, { ...good, outletId: DEMO.otherMerchants[0].outlets[0].id }))).toEqual(['NOT_FOUND']);
    expect(await rowCounts()).toEqual(before);
  });

  it('a first corporate account is effective at once; the bank sees it for every outlet (fallback), the owner in full, others masked', async () => {
    const first = await set(owner.headers, { bankCode: '009', accountNumber: '0123 4567-89', holderName: '  PT  WARUNG KOPI DEMO ' });
    expect(first.errors).toBeUndefined();
    expect(first.data.setSettlementAccount).toMatchObject({
      outletId: null,
      current: { source: 'corporate', bankCode: '009', accountNumber: '0123456789', holderName: 'PT WARUNG KOPI DEMO' },
      pending: null,
    });
    expect(first.data.setSettlementAccount.current.requestedBy).toBe(`user:${owner.userId}`);
    // Stored sealed: the number is nowhere in clear in the database.
    const [stored] = await sql<{ sealed: string; last4: string }>(
      `select account_number_sealed as sealed, account_number_last4 as last4 from outlet.settlement_accounts where merchant_id = $1 and outlet_id is null`,
      [M],
    );
    expect(stored.sealed).toMatch(/^v1\./);
    expect(stored.sealed).not.toContain('0123456789');
    expect(stored.last4).toBe('6789');

    const bank = await bankDetail();
    for (const outlet of bank.outlets)
      expect(outlet.settlement_account).toEqual({
        source: 'corporate',
        bank_code: '009',
        account_number: '0123456789',
        holder_name: 'PT WARUNG KOPI DEMO',
        effective_since: expect.any(String),
      });

    const full = await gql(stack, READ, {}, owner.headers);
    expect(full.data.viewer.merchant.settlementAccount.current.accountNumber).toBe('0123456789');
    const viewer = await memberHeaders(stack, M, 'viewer');
    const masked = await gql(stack, READ, {}, viewer.headers);
    expect(masked.errors).toBeUndefined();
    expect(masked.data.viewer.merchant.settlementAccount.current).toEqual({
      accountNumber: '******6789',
      accountNumberMasked: '******6789',
      holderName: 'PT WARUNG KOPI DEMO',
    });
    for (const o of masked.data.viewer.merchant.outlets) expect(o.effectiveSettlementAccount.accountNumber).toBe('******6789');
  });

  it('an outlet account is held for the cooling-off (bank still sees the corporate one), told on push, email and messaging, a replay adds nothing, then it is effective', async () => {
    const input = { outletId: MENTENG.id, bankCode: '014', accountNumber: '8730012345', holderName: 'BUDI SANTOSO' };
    const before = await rowCounts();
    const held = await set(owner.headers, input);
    expect(held.errors).toBeUndefined();
    expect(held.data.setSettlementAccount.current).toBeNull();
    expect(held.data.setSettlementAccount.pending).toMatchObject({ source: 'outlet', accountNumber: '8730012345' });
    const replay = await set(owner.headers, { ...input, accountNumber: '873-001-2345' });
    expect(replay.data.setSettlementAccount.pending.id).toBe(held.data.setSettlementAccount.pending.id);
    const after = await rowCounts();
    expect(after.accounts).toBe(before.accounts + 1);
    expect(after.audit).toBe(before.audit + 1);

    // The bank still pays Menteng into the corporate account.
    expect(await accountOf(MENTENG.id)).toMatchObject({ source: 'corporate', account_number: '0123456789' });

    // Every channel, number masked (last 4 only), in the owner's language (Indonesian by default).
    const pushed = await eventually('a settlement push', async () => pushesOf('settlement_account_changed', '******2345')[0]);
    expect(pushed.json.message.notification.title).toBe('Rekening pencairan diubah');
    expect(pushed.json.message.notification.body).toContain('******2345');
    const mail = await eventually('a settlement email', async () =>
      email.requests.find((r) => r.json?.to === 'pemilik@tokodemo.example' && r.json?.template === 'settlement_account_changed'),
    );
    expect(mail.json.subject).toBe('Rekening pencairan diubah');
    const message = await eventually('a settlement message', async () =>
      messaging.requests.find(
        (r) =>
          r.json?.to === ownerPhone.slice(1) &&
          r.json?.template?.name === 'settlement_account_changed' &&
          JSON.stringify(r.json).includes('******2345'),
      ),
    );
    expect(message.json.template.language.code).toBe('id');
    for (const r of [pushed, mail, message]) expect(JSON.stringify(r.json)).not.toContain('8730012345');
    expect(pushesOf('settlement_account_changed', '******2345')).toHaveLength(1);

    // The audit names the owner and both accounts, masked.
    const audit = await gql(
      stack,
      `query { viewer { merchant { settlementAccountAudit(limit: 1) { action actor oldAccount newAccount } } } }`,
      {},
      owner.headers,
    );
    expect(audit.data.viewer.merchant.settlementAccountAudit[0]).toEqual({
      action: 'requested',
      actor: `user:${owner.userId}`,
      oldAccount: '009 ******6789 PT WARUNG KOPI DEMO',
      newAccount: '014 ******2345 BUDI SANTOSO',
    });

    // After the cooling-off the outlet's own account is effective (the others still fall back to the corporate one).
    const effective = await eventually(
      'the outlet account effective',
      async () => {
        const account = await accountOf(MENTENG.id);
        return account?.source === 'outlet' ? account : undefined;
      },
      COOLING_OFF_SECS * 1000 + 8_000,
    );
    expect(effective).toMatchObject({ source: 'outlet', bank_code: '014', account_number: '8730012345', holder_name: 'BUDI SANTOSO' });
    expect(await accountOf(PUSAT.id)).toMatchObject({ source: 'corporate', account_number: '0123456789' });
    // The by-NMID lookup (the bank view's one statement reads the accounts ahead) answers the same outlets.
    const byNmid = await bankDetail(`/api/psp/v1/merchants/by-nmid/${PUSAT.nmid}?include_outlets=true`);
    expect(byNmid.outlets).toEqual((await bankDetail()).outlets);
  }, 30_000);

  it('a change cancelled during its cooling-off never becomes effective; the owner is told', async () => {
    const held = await set(owner.headers, { bankCode: '002', accountNumber: '99990000111122', holderName: 'PENIPU' });
    expect(held.data.setSettlementAccount.pending).toMatchObject({ accountNumber: '99990000111122' });
    const cancelled = await gql(stack, CANCEL, { input: {} }, owner.headers);
    expect(cancelled.data.cancelSettlementAccountChange).toEqual({ current: { accountNumber: '0123456789' }, pending: null });
    // A second cancel changes nothing.
    const before = await rowCounts();
    expect((await gql(stack, CANCEL, { input: {} }, owner.headers)).data.cancelSettlementAccountChange.pending).toBeNull();
    expect((await rowCounts()).audit).toBe(before.audit);
    await eventually('a cancellation push', async () => pushesOf('settlement_account_change_cancelled')[0]);
    await new Promise((r) => setTimeout(r, COOLING_OFF_SECS * 1000 + 500));
    expect(await accountOf(PUSAT.id)).toMatchObject({ source: 'corporate', account_number: '0123456789' });
    const [row] = await sql<{ status: string; ended_by: string }>(
      `select status, ended_by from outlet.settlement_accounts where holder_name = 'PENIPU'`,
    );
    expect(row).toEqual({ status: 'cancelled', ended_by: `user:${owner.userId}` });
  }, 30_000);

  it('an operator (admin) sets and cancels for a merchant; never logs the account number', async () => {
    const operator = await operatorHeaders(stack, ['admin']);
    const held = await set(operator, { merchantId: M, bankCode: '008', accountNumber: '1112223334445', holderName: 'CV DEMO' });
    expect(held.errors).toBeUndefined();
    expect(held.data.setSettlementAccount.pending.requestedBy).toMatch(/^operator:/);
    const cancelled = await gql(stack, CANCEL, { input: { merchantId: M } }, operator);
    expect(cancelled.data.cancelSettlementAccountChange.pending).toBeNull();
    for (const number of ['0123456789', '8730012345', '99990000111122', '1112223334445'])
      expect(stack.logs.filter((line) => JSON.stringify(line).includes(number))).toEqual([]);
  });
});
