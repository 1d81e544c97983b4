import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { encodeActingPrincipal } from '@lib/auth/principal';
import { issueServiceToken } from '@lib/auth/service-token';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { clearPartnerCredentialCache } from '@rest-adapters/partner/auth/partner-auth';
import { createPartner, grantPartnerAccess, issuePartnerCredential, onboardMerchant, ungrantPartnerAccess } from '@scripts/database-tasks';
import { NEVER, NEVER_IN_A, keysOf } from '../support/partner-masking';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const BASE = '/api/partner/v1';
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);

describe('Partner API data endpoints (referral merchants, summary, transactions, scoring)', () => {
  let stack: TestStack;
  let url: string;
  const bodies: { contract: 'A' | 'B'; path: string; body: unknown }[] = [];
  let partnerId: string;
  let referred: string; // referral, active, with transactions
  let consented: string; // consent
  let assigned: string; // assignment, suspended
  let deleted: string; // assignment, deleted: never listed
  let outsider: string; // no access
  let withdrawn: string; // consent, withdrawn later
  const tokens: Record<string, string> = {};
  const outletsOf: Record<string, string[]> = {};

  const issue = async (contract: 'A' | 'B', scopes: string[]) => {
    const key = await issuePartnerCredential(stack.config, url, {
      partnerCode: 'PTX',
      name: `t-${contract}-${scopes.join('+')}`,
      contract,
      scopes,
      mode: 'jwt',
    });
    const res = await stack.rest.inject({
      method: 'POST',
      url: `${BASE}/auth/token`,
      payload: { credential_key: key.credential_key, credential_secret: key.credential_secret },
    });
    expect(res.statusCode).toBe(200);
    return res.json().access_token as string;
  };
  const get = async (token: string, path: string, contract?: 'A' | 'B') => {
    const res = await stack.rest.inject({ method: 'GET', url: `${BASE}${path}`, headers: { authorization: `Bearer ${token}` } });
    if (contract && res.statusCode === 200) bodies.push({ contract, path, body: res.json() });
    return res;
  };

  const tx = async (merchantId: string, at: string, status: string, gross: number, extra: Record<string, unknown> = {}) => {
    const id = randomUUID();
    const fee = status === 'failed' || status === 'cancelled' ? 0 : Math.round(gross * 0.007);
    const row = {
      id,
      merchant_id: merchantId,
      transaction_code: `TX-${id.slice(0, 8)}`,
      status,
      gross_amount: gross,
      transaction_at: at,
      created_at: at,
      updated_at: at,
      external_reference: `EXT-${id.slice(0, 6)}`,
      rrn: '123456789012',
      payer_bank_code: 'BCA',
      payer_bank_name: 'Bank Central Asia',
      payer_name_masked: 'J*** D**',
      payment_method: 'qris',
      currency: 'IDR',
      mdr_rate: fee ? '0.0070' : '0',
      mdr_fee_amount: fee,
      net_amount_after_mdr: gross - fee,
      mdr_fee_bank: 10,
      switching_fee: 5,
      platform_fee: 3,
      settlement_status: 'unsettled',
      settled_at: null as string | null,
      ...extra,
    };
    const columns = Object.keys(row);
    await adminQuery(
      url,
      `insert into "transaction".transactions (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
    return id;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    url = stack.database.adminUrl;
    partnerId = (await createPartner(stack.config, url, { code: 'PTX', name: 'Partner Test', referralCode: 'PTXREF' })).partner_id;
    const merchant = async (name: string, nmid: string, referralCode?: string) => {
      const onboarded = await onboardMerchant(stack.config, url, {
        name,
        bankCode: 'BDEMO',
        nmids: [nmid],
        outlets: 1,
        ...(referralCode ? { referralCode } : {}),
      });
      outletsOf[onboarded.merchant_id] = onboarded.outlets.map((o) => o.outlet_id);
      return onboarded.merchant_id;
    };
    referred = await merchant('Toko Rujukan', 'ID4026112400001', 'PTXREF');
    consented = await merchant('Toko Setuju', 'ID4026112400002');
    assigned = await merchant('Toko Tugas', 'ID4026112400003', 'DEMOREF');
    deleted = await merchant('Toko Hapus', 'ID4026112400004');
    outsider = await merchant('Toko Luar', 'ID4026112400005');
    withdrawn = await merchant('Toko Tarik', 'ID4026112400006');
    await grantPartnerAccess(stack.config, url, { partnerCode: 'PTX', merchantId: consented, type: 'consent' });
    await grantPartnerAccess(stack.config, url, { partnerCode: 'PTX', merchantId: assigned, type: 'assignment' });
    await grantPartnerAccess(stack.config, url, { partnerCode: 'PTX', merchantId: deleted, type: 'assignment' });
    await grantPartnerAccess(stack.config, url, { partnerCode: 'PTX', merchantId: withdrawn, type: 'consent' });
    await adminQuery(url, `update merchant.merchants set status = 'suspended' where id = $1`, [assigned]);
    await adminQuery(url, `update merchant.merchants set status = 'deleted' where id = $1`, [deleted]);

    // The referred merchant's November 2026 (Asia/Jakarta) and its edges.
    await tx(referred, '2026-10-31T16:59:59.999Z', 'success', 99_999); // 2026-10-31 23:59:59.999 WIB: October
    await tx(referred, '2026-10-31T17:00:00.000Z', 'success', 10_000, { settled_at: '2026-11-01T03:00:00Z', settlement_status: 'settled' }); // Nov 1 00:00 WIB
    await tx(referred, '2026-11-30T16:59:59.999Z', 'success', 20_000); // Nov 30 23:59:59.999 WIB
    await tx(referred, '2026-11-30T17:00:00.000Z', 'success', 30_000); // Dec 1 00:00 WIB
    await tx(referred, '2026-11-02T03:00:00Z', 'cancelled', 5_000); // Monday Nov 2
    await tx(referred, '2026-11-03T03:00:00Z', 'reversed', 7_000);
    await tx(referred, '2026-11-04T03:00:00Z', 'pending', 8_000);
    for (let i = 0; i < 55; i++) await tx(referred, new Date(Date.UTC(2026, 10, 10, 1, i)).toISOString(), 'success', 1_000);
    await tx(outsider, '2026-11-05T03:00:00Z', 'success', 4_000);

    tokens.A = await issue('A', ['merchant.read', 'transaction.read', 'scoring.read']);
    tokens.B = await issue('B', ['merchant.read', 'transaction.read', 'risk-summary.read']);
    tokens.A2 = await issue('A', ['merchant.read', 'transaction.read', 'scoring.read']);
    tokens.B2 = await issue('B', ['merchant.read', 'transaction.read', 'risk-summary.read']);
    tokens.merchantOnly = await issue('A', ['merchant.read']);
    tokens.txOnly = await issue('B', ['transaction.read']);
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => clearPartnerCredentialCache());

  describe('GET /partners/{partner_id}/referral-merchants', () => {
    it('lists the merchants in scope in contract A (deleted and outsiders left out, statuses mapped)', async () => {
      const res = await get(tokens.A, `/partners/${partnerId}/referral-merchants`, 'A');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['items', 'partner_code', 'partner_id']);
      expect(body.partner_id).toBe(partnerId);
      expect(body.partner_code).toBe('PTX');
      const byId = Object.fromEntries(body.items.map((i: { merchant_id: string }) => [i.merchant_id, i]));
      expect(Object.keys(byId).sort()).toEqual([referred, consented, assigned, withdrawn].sort());
      expect(byId[referred]).toEqual({
        merchant_id: referred,
        merchant_code: expect.stringMatching(/^MRC-/),
        merchant_name: 'Toko Rujukan',
        merchant_status: 'active',
        referral_code: 'PTXREF',
        access_type: 'referral',
        granted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?\+07:00$/),
        default_outlet_id: outletsOf[referred][0],
      });
      expect(byId[consented]).toMatchObject({ access_type: 'consent', referral_code: null, merchant_status: 'active' });
      expect(byId[assigned]).toMatchObject({ access_type: 'assignment', referral_code: 'DEMOREF', merchant_status: 'suspended' });
      for (const item of body.items)
        expect(Object.keys(item).sort()).toEqual([
          'access_type',
          'default_outlet_id',
          'granted_at',
          'merchant_code',
          'merchant_id',
          'merchant_name',
          'merchant_status',
          'referral_code',
        ]);
    });

    it('lists them in contract B with count and the referring partner', async () => {
      const res = await get(tokens.B, `/partners/${partnerId}/referral-merchants`, 'B');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['count', 'items', 'partner_id']);
      expect(body.count).toBe(4);
      expect(body.items).toHaveLength(4);
      const byId = Object.fromEntries(body.items.map((i: { merchant_id: string }) => [i.merchant_id, i]));
      expect(byId[referred]).toEqual({
        merchant_id: referred,
        merchant_code: expect.stringMatching(/^MRC-/),
        merchant_name: 'Toko Rujukan',
        status: 'active',
        referral_partner_id: partnerId,
        default_outlet_id: outletsOf[referred][0],
      });
      expect(byId[consented].referral_partner_id).toBeNull();
      expect(byId[assigned]).toMatchObject({ status: 'suspended', referral_partner_id: DEMO.partner.id });
    });

    it('refuses another partner_id and a token without merchant.read with 403 forbidden', async () => {
      for (const [token, path] of [
        [tokens.A, `/partners/${DEMO.partner.id}/referral-merchants`],
        [tokens.B, `/partners/${DEMO.partner.id}/referral-merchants/summary`],
        [tokens.txOnly, `/partners/${partnerId}/referral-merchants`],
        [tokens.txOnly, `/partners/${partnerId}/referral-merchants/summary`],
      ]) {
        const res = await get(token, path);
        expect({ path, status: res.statusCode, body: res.json() }).toEqual({
          path,
          status: 403,
          body: { error: expect.any(String), code: 'forbidden' },
        });
      }
    });

    it('answers 401 without a token', async () => {
      const res = await stack.rest.inject({ method: 'GET', url: `${BASE}/partners/${partnerId}/referral-merchants` });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('GET /partners/{partner_id}/referral-merchants/summary', () => {
    it('contract A: counts and all-time gross and count of success transactions of merchants in scope', async () => {
      const res = await get(tokens.A, `/partners/${partnerId}/referral-merchants/summary`, 'A');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        partner_id: partnerId,
        partner_code: 'PTX',
        merchant_count: 4,
        active_count: 3,
        gross_amount: 99_999 + 10_000 + 20_000 + 30_000 + 55 * 1_000,
        transaction_count: 59,
        // Transactions recorded without an outlet are the entry without one.
        outlet_breakdown: [
          { merchant_id: referred, outlet_id: null, gross_amount: 99_999 + 10_000 + 20_000 + 30_000 + 55 * 1_000, transaction_count: 59 },
        ],
      });
    });

    it('contract B: counts only', async () => {
      const res = await get(tokens.B, `/partners/${partnerId}/referral-merchants/summary`, 'B');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        partner_id: partnerId,
        merchant_count: 4,
        active_count: 3,
        inactive_count: 1,
        outlet_breakdown: [
          { merchant_id: referred, outlet_id: null, gross_amount: 99_999 + 10_000 + 20_000 + 30_000 + 55 * 1_000, transaction_count: 59 },
        ],
      });
    });
  });

  describe('GET /merchants/{merchant_id}/transactions', () => {
    const itemKeysA = [
      'external_reference',
      'gross_amount',
      'id',
      'outlet_id',
      'payment_channel',
      'payment_method',
      'settled_at',
      'transaction_at',
      'transaction_code',
      'transaction_status',
    ];
    const itemKeysB = [
      'currency',
      'gross_amount',
      'id',
      'mdr_fee_amount',
      'mdr_rate',
      'merchant_id',
      'net_amount_after_mdr',
      'outlet_id',
      'payment_channel',
      'payment_method',
      'settled_at',
      'settlement_status',
      'transaction_at',
      'transaction_code',
      'transaction_status',
    ];

    it('contract A monthly: the Jakarta month containing anchor_date, 50 newest items, summary over the whole window', async () => {
      const res = await get(tokens.A, `/merchants/${referred}/transactions?period=monthly&anchor_date=2026-11-02`, 'A');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual([
        'items',
        'merchant_id',
        'merchant_name',
        'merchant_status',
        'period',
        'period_end_at',
        'period_start_at',
        'summary',
      ]);
      expect(body).toMatchObject({
        merchant_id: referred,
        merchant_name: 'Toko Rujukan',
        merchant_status: 'active',
        period: 'monthly',
        period_start_at: '2026-11-01T00:00:00+07:00',
        period_end_at: '2026-11-30T23:59:59.999+07:00',
        summary: {
          gross_amount: 10_000 + 20_000 + 55 * 1_000,
          transaction_count: 57,
          outlet_breakdown: [{ outlet_id: null, gross_amount: 10_000 + 20_000 + 55 * 1_000, transaction_count: 57 }],
        },
      });
      expect(body.items).toHaveLength(50);
      for (const item of body.items) {
        expect(Object.keys(item).sort()).toEqual(itemKeysA);
        expect(item.transaction_at).toMatch(/\+07:00$/);
      }
      const times = body.items.map((i: { transaction_at: string }) => Date.parse(i.transaction_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(body.items[0]).toEqual({
        id: UUID,
        transaction_code: expect.stringMatching(/^TX-/),
        external_reference: expect.stringMatching(/^EXT-/),
        transaction_status: 'success',
        payment_method: 'qris',
        payment_channel: 'Bank Central Asia',
        gross_amount: 20_000,
        transaction_at: '2026-11-30T23:59:59.999+07:00',
        settled_at: null,
        outlet_id: null,
      });
    });

    it('contract A daily and weekly (Monday–Sunday) windows, statuses mapped, settled_at in +07:00', async () => {
      const daily = (await get(tokens.A, `/merchants/${referred}/transactions?period=daily&anchor_date=2026-11-01`, 'A')).json();
      expect(daily).toMatchObject({
        period: 'daily',
        period_start_at: '2026-11-01T00:00:00+07:00',
        period_end_at: '2026-11-01T23:59:59.999+07:00',
      });
      expect(daily.summary).toEqual({
        gross_amount: 10_000,
        transaction_count: 1,
        outlet_breakdown: [{ outlet_id: null, gross_amount: 10_000, transaction_count: 1 }],
      });
      expect(daily.items).toEqual([
        expect.objectContaining({
          transaction_at: '2026-11-01T00:00:00+07:00',
          settled_at: '2026-11-01T10:00:00+07:00',
          gross_amount: 10_000,
        }),
      ]);

      const weekly = (await get(tokens.A, `/merchants/${referred}/transactions?period=weekly&anchor_date=2026-11-04`, 'A')).json();
      expect(weekly).toMatchObject({
        period: 'weekly',
        period_start_at: '2026-11-02T00:00:00+07:00',
        period_end_at: '2026-11-08T23:59:59.999+07:00',
      });
      expect(weekly.summary).toEqual({ gross_amount: 0, transaction_count: 0, outlet_breakdown: [] });
      expect(weekly.items.map((i: { transaction_status: string; gross_amount: number }) => [i.transaction_status, i.gross_amount])).toEqual(
        [
          ['pending', 8_000],
          ['refunded', 7_000],
          ['failed', 5_000],
        ],
      );

      const sunday = (await get(tokens.A, `/merchants/${referred}/transactions?period=weekly&anchor_date=2026-11-08`, 'A')).json();
      expect(sunday).toMatchObject({ period_start_at: '2026-11-02T00:00:00+07:00', period_end_at: '2026-11-08T23:59:59.999+07:00' });
    });

    it('contract A defaults: monthly, today in Asia/Jakarta', async () => {
      const body = (await get(tokens.A, `/merchants/${referred}/transactions`, 'A')).json();
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jakarta' }).format(new Date());
      expect(body.period).toBe('monthly');
      expect(body.period_start_at).toBe(`${today.slice(0, 7)}-01T00:00:00+07:00`);
    });

    it('contract B: inclusive range, status filter (cancelled → failed, reversed → refunded), limit, MDR fields', async () => {
      const range = `transaction_at_from=${encodeURIComponent('2026-11-01T00:00:00+07:00')}&transaction_at_to=${encodeURIComponent('2026-11-30T23:59:59.999+07:00')}`;
      const success = (await get(tokens.B, `/merchants/${referred}/transactions?${range}&status=success&limit=500`, 'B')).json();
      expect(Object.keys(success).sort()).toEqual(['count', 'items', 'merchant_id']);
      expect(success.count).toBe(57);
      expect(success.items).toHaveLength(57);
      for (const item of success.items) expect(Object.keys(item).sort()).toEqual(itemKeysB);
      const first = success.items.find((i: { gross_amount: number }) => i.gross_amount === 10_000);
      expect(first).toEqual({
        id: UUID,
        merchant_id: referred,
        transaction_code: expect.stringMatching(/^TX-/),
        transaction_status: 'success',
        payment_method: 'qris',
        payment_channel: 'Bank Central Asia',
        gross_amount: 10_000,
        mdr_rate: 0.007,
        mdr_fee_amount: 70,
        net_amount_after_mdr: 9_930,
        currency: 'IDR',
        transaction_at: '2026-10-31T17:00:00.000Z',
        settled_at: '2026-11-01T03:00:00.000Z',
        settlement_status: 'settled',
        outlet_id: null,
      });

      const failed = (await get(tokens.B, `/merchants/${referred}/transactions?${range}&status=failed`, 'B')).json();
      expect(failed.items.map((i: { transaction_status: string; gross_amount: number }) => [i.transaction_status, i.gross_amount])).toEqual(
        [['failed', 5_000]],
      );
      const refunded = (await get(tokens.B, `/merchants/${referred}/transactions?${range}&status=refunded`, 'B')).json();
      expect(
        refunded.items.map((i: { transaction_status: string; gross_amount: number }) => [i.transaction_status, i.gross_amount]),
      ).toEqual([['refunded', 7_000]]);

      const defaults = (await get(tokens.B, `/merchants/${referred}/transactions`, 'B')).json();
      expect(defaults.count).toBe(50);
      const limited = (await get(tokens.B, `/merchants/${referred}/transactions?limit=3`, 'B')).json();
      expect(limited.items.map((i: { transaction_at: string }) => i.transaction_at)).toEqual([
        '2026-11-30T17:00:00.000Z',
        '2026-11-30T16:59:59.999Z',
        '2026-11-10T01:54:00.000Z',
      ]);
      const upperBound = (
        await get(
          tokens.B,
          `/merchants/${referred}/transactions?transaction_at_to=${encodeURIComponent('2026-10-31T23:59:59.999+07:00')}`,
          'B',
        )
      ).json();
      expect(upperBound.items.map((i: { gross_amount: number }) => i.gross_amount)).toEqual([99_999]);
    });

    it.each([
      ['A', 'period=yearly'],
      ['A', 'anchor_date=2026-13-01'],
      ['A', 'anchor_date=02-11-2026'],
      ['A', 'limit=10'],
      ['B', 'limit=501'],
      ['B', 'limit=0'],
      ['B', 'status=cancelled'],
      ['B', 'transaction_at_from=yesterday'],
      ['B', 'transaction_at_from=2026-11-02T00:00:00'],
      [
        'B',
        `transaction_at_from=${encodeURIComponent('2026-11-03T00:00:00Z')}&transaction_at_to=${encodeURIComponent('2026-11-02T00:00:00Z')}`,
      ],
      ['B', 'period=daily'],
    ] as const)('contract %s: %s is 400 bad_request', async (contract, query) => {
      const res = await get(contract === 'A' ? tokens.A2 : tokens.B2, `/merchants/${referred}/transactions?${query}`);
      expect(res.statusCode).toBe(400);
      // A query value the schema refuses is also named in details; a check of the handler (from after to) has none.
      const body = res.json();
      expect(body).toEqual({
        error: expect.any(String),
        code: 'bad_request',
        ...(body.details ? { details: [expect.objectContaining({ pointer: expect.stringMatching(/^\/query\/[a-z_]+$/) })] } : {}),
      });
    });

    it('refuses a missing scope, a merchant outside scope, a deleted one, an unknown id and a withdrawn consent with 403', async () => {
      const cases: [string, string][] = [
        [tokens.merchantOnly, `/merchants/${referred}/transactions`],
        [tokens.A2, `/merchants/${outsider}/transactions`],
        [tokens.B2, `/merchants/${outsider}/transactions`],
        [tokens.A2, `/merchants/${randomUUID()}/transactions`],
        [tokens.A2, `/merchants/not-a-uuid/transactions`],
      ];
      for (const [token, path] of cases) {
        const res = await get(token, path);
        expect({ path, status: res.statusCode, body: res.json() }).toEqual({
          path,
          status: 403,
          body: { error: expect.any(String), code: 'forbidden' },
        });
      }
      expect((await get(tokens.B2, `/merchants/${withdrawn}/transactions`)).statusCode).toBe(200);
      await ungrantPartnerAccess(stack.config, url, { partnerCode: 'PTX', merchantId: withdrawn, type: 'consent' });
      expect((await get(tokens.B2, `/merchants/${withdrawn}/transactions`)).statusCode).toBe(403);
      expect((await get(tokens.B2, `/merchants/${withdrawn}/scoring-summary`)).statusCode).toBe(403);
      const list = (await get(tokens.B2, `/partners/${partnerId}/referral-merchants`)).json();
      expect(list.items.map((i: { merchant_id: string }) => i.merchant_id)).not.toContain(withdrawn);
      await grantPartnerAccess(stack.config, url, { partnerCode: 'PTX', merchantId: withdrawn, type: 'consent' });
    });
  });

  describe('GET /merchants/{merchant_id}/scoring-summary', () => {
    it('contract A: scoringA with merchant name and status', async () => {
      const res = await get(tokens.A, `/merchants/${referred}/scoring-summary`, 'A');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual([
        'average_monthly_gross_amount',
        'average_monthly_transaction_count',
        'avg_ticket_size',
        'growth_30d',
        'growth_90d',
        'insufficient_data',
        'merchant_id',
        'merchant_name',
        'merchant_status',
        'settlement_consistency_score',
        'transaction_stability_score',
      ]);
      expect(body).toMatchObject({ merchant_id: referred, merchant_name: 'Toko Rujukan', merchant_status: 'active' });
      expect(Number.isInteger(body.average_monthly_gross_amount)).toBe(true);
    });

    it('contract B: scoringB with months_sampled, no merchant name', async () => {
      const res = await get(tokens.B, `/merchants/${referred}/scoring-summary`, 'B');
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual([
        'average_monthly_gross_amount',
        'average_monthly_transaction_count',
        'avg_ticket_size',
        'growth_30d',
        'insufficient_data',
        'merchant_id',
        'months_sampled',
        'settlement_consistency_score',
        'transaction_stability_score',
      ]);
      expect(res.json().merchant_id).toBe(referred);
    });

    it('never answers null for a merchant without data: the documented types, and insufficient_data names the defaults', async () => {
      // `consented` has no transaction at all (docs/scoring.md §8, decisions/0039).
      const a = await get(tokens.A, `/merchants/${consented}/scoring-summary`, 'A');
      expect(a.statusCode).toBe(200);
      expect(a.json()).toEqual({
        merchant_id: consented,
        merchant_name: 'Toko Setuju',
        merchant_status: 'active',
        average_monthly_gross_amount: 0,
        average_monthly_transaction_count: 0,
        avg_ticket_size: 0,
        growth_30d: 0,
        growth_90d: 0,
        settlement_consistency_score: 0,
        transaction_stability_score: 0,
        insufficient_data: ['growth_30d', 'growth_90d', 'settlement_consistency_score', 'transaction_stability_score'],
      });
      const b = await get(tokens.B, `/merchants/${consented}/scoring-summary`, 'B');
      expect(b.statusCode).toBe(200);
      expect(b.json()).toEqual({
        merchant_id: consented,
        average_monthly_gross_amount: 0,
        average_monthly_transaction_count: 0,
        avg_ticket_size: 0,
        growth_30d: 0,
        settlement_consistency_score: 35,
        transaction_stability_score: 40,
        months_sampled: 0,
        insufficient_data: ['growth_30d', 'settlement_consistency_score', 'transaction_stability_score'],
      });
      expect(Object.values((await get(tokens.A, `/merchants/${referred}/scoring-summary`)).json())).not.toContain(null);
    });

    it('refuses a token without scoring.read / risk-summary.read and a merchant outside scope', async () => {
      expect((await get(tokens.merchantOnly, `/merchants/${referred}/scoring-summary`)).json()).toEqual({
        error: expect.any(String),
        code: 'forbidden',
      });
      expect((await get(tokens.txOnly, `/merchants/${referred}/scoring-summary`)).statusCode).toBe(403);
      expect((await get(tokens.A2, `/merchants/${outsider}/scoring-summary`)).statusCode).toBe(403);
    });
  });

  describe('partner scope in the transaction subgraph (through the gateway)', () => {
    const QUERY = (field: string) => `query { partnerMerchants { merchantId merchant { id ${field} } } }`;
    const asPartner = async (query: string, merchantIds?: string[]) => {
      const token = await issueServiceToken('partner-test', stack.config.secrets.serviceTokenSecret);
      const principal = {
        kind: 'partner' as const,
        partnerId,
        credentialId: randomUUID(),
        scopes: ['transaction.read'],
        contract: 'B' as const,
        ...(merchantIds ? { merchantIds } : {}),
      };
      const res = await request(stack.gatewayUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'x-acting-principal': encodeActingPrincipal(principal),
        },
        body: JSON.stringify({ query }),
      });
      return (await res.body.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] };
    };

    it.each([
      ['merchantTransactions', 'merchantTransactions(limit: 5) { id }'],
      ['transactionTotals', 'transactionTotals { count }'],
      ['scoringA', 'scoringA { avgTicketSize }'],
      ['scoringB', 'scoringB { avgTicketSize }'],
    ])('refuses %s to a partner principal whose merchantIds lack the merchant', async (_name, field) => {
      for (const ids of [undefined, [], [consented]]) {
        const res = await asPartner(QUERY(field), ids);
        expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      }
    });

    it('answers when merchantIds hold every merchant asked for', async () => {
      const res = await asPartner(
        `query { partnerMerchants(merchantIds: ["${referred}"]) { merchant { id transactionTotals { count } merchantTransactions(limit: 2) { id } } } }`,
        [referred],
      );
      expect(res.errors).toBeUndefined();
      expect(res.data.partnerMerchants).toEqual([
        { merchant: { id: referred, transactionTotals: { count: 59 }, merchantTransactions: [{ id: UUID }, { id: UUID }] } },
      ]);
    });
  });

  describe('outlet fields for integrators (partner-api.md §1 multi-outlet model), a merchant with three outlets', () => {
    let chain: string;
    let outlets: string[];
    const multi: Record<'A' | 'B', string> = { A: '', B: '' };
    const sum = (entries: { gross_amount: number; transaction_count: number }[]) => ({
      gross_amount: entries.reduce((n, e) => n + e.gross_amount, 0),
      transaction_count: entries.reduce((n, e) => n + e.transaction_count, 0),
    });

    beforeAll(async () => {
      await createPartner(stack.config, url, { code: 'PTM', name: 'Partner Cabang', referralCode: 'PTMREF' });
      const onboarded = await onboardMerchant(stack.config, url, {
        name: 'Toko Banyak Cabang',
        bankCode: 'BDEMO',
        nmids: ['ID4026112400011', 'ID4026112400012', 'ID4026112400013'],
        outlets: 3,
        referralCode: 'PTMREF',
      });
      chain = onboarded.merchant_id;
      outlets = onboarded.outlets.map((o) => o.outlet_id);
      await tx(chain, '2026-11-03T02:00:00Z', 'success', 10_000, { outlet_id: outlets[0] });
      await tx(chain, '2026-11-04T02:00:00Z', 'success', 12_000, { outlet_id: outlets[0] });
      await tx(chain, '2026-11-05T02:00:00Z', 'success', 25_000, { outlet_id: outlets[1] });
      await tx(chain, '2026-11-06T02:00:00Z', 'success', 7_000, { outlet_id: outlets[2] });
      await tx(chain, '2026-11-07T02:00:00Z', 'failed', 5_000, { outlet_id: outlets[2] }); // never counted
      for (const contract of ['A', 'B'] as const) {
        const key = await issuePartnerCredential(stack.config, url, {
          partnerCode: 'PTM',
          name: `multi-${contract}`,
          contract,
          scopes: ['merchant.read', 'transaction.read'],
          mode: 'jwt',
        });
        const res = await stack.rest.inject({
          method: 'POST',
          url: `${BASE}/auth/token`,
          payload: { credential_key: key.credential_key, credential_secret: key.credential_secret },
        });
        multi[contract] = res.json().access_token;
      }
    });

    it('merchant responses carry default_outlet_id: the merchant’s default outlet, in both contracts', async () => {
      const [stored] = await adminQuery<{ id: string }>(url, `select id from outlet.outlets where merchant_id = $1 and is_default`, [
        chain,
      ]);
      expect(stored.id).toBe(outlets[0]);
      const ptm = (await adminQuery<{ id: string }>(url, `select id from merchant.partners where code = 'PTM'`))[0].id;
      for (const contract of ['A', 'B'] as const) {
        const res = await get(multi[contract], `/partners/${ptm}/referral-merchants`, contract);
        expect(res.statusCode).toBe(200);
        expect(res.json().items).toEqual([expect.objectContaining({ merchant_id: chain, default_outlet_id: outlets[0] })]);
      }
    });

    it('transactions carry their outlet_id, and the summary’s outlet_breakdown adds up to the summary (contract A)', async () => {
      const a = (await get(multi.A, `/merchants/${chain}/transactions?period=monthly&anchor_date=2026-11-15`, 'A')).json();
      expect(a.items.map((i: { gross_amount: number; outlet_id: string }) => [i.gross_amount, i.outlet_id])).toEqual([
        [5_000, outlets[2]],
        [7_000, outlets[2]],
        [25_000, outlets[1]],
        [12_000, outlets[0]],
        [10_000, outlets[0]],
      ]);
      expect(a.summary.outlet_breakdown).toEqual([
        { outlet_id: outlets[1], gross_amount: 25_000, transaction_count: 1 },
        { outlet_id: outlets[0], gross_amount: 22_000, transaction_count: 2 },
        { outlet_id: outlets[2], gross_amount: 7_000, transaction_count: 1 },
      ]);
      expect(sum(a.summary.outlet_breakdown)).toEqual({
        gross_amount: a.summary.gross_amount,
        transaction_count: a.summary.transaction_count,
      });
      expect(a.summary).toMatchObject({ gross_amount: 54_000, transaction_count: 4 });

      const b = (await get(multi.B, `/merchants/${chain}/transactions?status=success`, 'B')).json();
      expect(b.items.map((i: { gross_amount: number; outlet_id: string }) => [i.gross_amount, i.outlet_id])).toEqual([
        [7_000, outlets[2]],
        [25_000, outlets[1]],
        [12_000, outlets[0]],
        [10_000, outlets[0]],
      ]);
    });

    it('the dashboard summary’s outlet_breakdown: per merchant and outlet, adding up to the summary (both contracts)', async () => {
      const ptm = (await adminQuery<{ id: string }>(url, `select id from merchant.partners where code = 'PTM'`))[0].id;
      const breakdown = [
        { merchant_id: chain, outlet_id: outlets[1], gross_amount: 25_000, transaction_count: 1 },
        { merchant_id: chain, outlet_id: outlets[0], gross_amount: 22_000, transaction_count: 2 },
        { merchant_id: chain, outlet_id: outlets[2], gross_amount: 7_000, transaction_count: 1 },
      ];
      const a = (await get(multi.A, `/partners/${ptm}/referral-merchants/summary`, 'A')).json();
      expect(a).toMatchObject({ merchant_count: 1, gross_amount: 54_000, transaction_count: 4, outlet_breakdown: breakdown });
      expect(sum(a.outlet_breakdown)).toEqual({ gross_amount: a.gross_amount, transaction_count: a.transaction_count });
      const b = (await get(multi.B, `/partners/${ptm}/referral-merchants/summary`, 'B')).json();
      expect(b).toEqual({ partner_id: ptm, merchant_count: 1, active_count: 1, inactive_count: 0, outlet_breakdown: breakdown });
    });
  });

  describe('masking', () => {
    it('never returns a masked field name anywhere in a partner response body (both contracts)', () => {
      expect(new Set(bodies.map((b) => b.path.replace(/\?.*/, '').replace(/[0-9a-f-]{36}/g, ':id'))).size).toBe(4);
      expect(new Set(bodies.map((b) => b.contract))).toEqual(new Set(['A', 'B']));
      for (const { contract, path, body } of bodies) {
        const keys = keysOf(body);
        const leaked = [...keys].filter((key) => NEVER.includes(key) || (contract === 'A' && NEVER_IN_A.includes(key)));
        expect({ path, contract, leaked }).toEqual({ path, contract, leaked: [] });
        const text = JSON.stringify(body);
        expect(text).not.toContain('J*** D**');
        expect(text).not.toContain('123456789012');
      }
    });
  });
});
