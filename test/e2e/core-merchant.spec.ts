import { v7 as uuidv7 } from 'uuid';
import { signUserAccessToken } from '@lib/auth/user-token';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { HttpError } from '@lib/rest/error-body';
import { GatewayClient } from '@lib/rest/gateway-client';
import { makassarPeriod } from '@rest-adapters/core/routes/shared/merchant-period';
import { ViewerMerchantTransactionsDocument, ViewerPaymentTerminalDocument } from '@rest-adapters/generated/operations';
import { sessionFor } from '../support/core-auth';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/** Merchant endpoints of the core API as the app calls them, on the whole stack and real PostgreSQL. */
describe('Core merchant endpoints: profile, registration, transactions, payment terminal, feedback', () => {
  let stack: TestStack;
  let url: string;
  let phoneSeq = 0;

  const createUser = async () => {
    const id = uuidv7();
    const phone = `+62812550${String(++phoneSeq).padStart(5, '0')}`;
    await adminQuery(
      url,
      'insert into merchant.users (id, phone, phone_verified_at, created_at, updated_at) values ($1, $2, now(), now(), now())',
      [id, phone],
    );
    return { id, phone };
  };
  const bearer = (userId: string) => sessionFor(stack, userId);
  const link = (merchantId: string, userId: string, role = 'owner') =>
    adminQuery(url, 'insert into merchant.merchant_users (id, merchant_id, user_id, role, created_at) values ($1, $2, $3, $4, now())', [
      uuidv7(),
      merchantId,
      userId,
      role,
    ]);
  const registration = (over: Record<string, unknown> = {}) => ({
    merchant_name: 'Kopi Senja',
    business_entity_type: 'Perseorangan',
    business_type_id: 2,
    average_monthly_revenue: 30_000_000,
    employee_count: 3,
    contact_phone: '0812 5599 0001',
    contact_email: 'Senja@Example.com',
    province_name: 'Sulawesi Selatan',
    city_name: 'Makassar',
    postal_code: '90111',
    device_fee_service_accepted: true,
    terms_of_service_accepted: true,
    privacy_policy_accepted: false,
    ...over,
  });
  const post = async (path: string, userId: string, payload: unknown) =>
    stack.rest.inject({ method: 'POST', url: path, headers: await bearer(userId), payload: payload as object });
  const get = async (path: string, userId: string) => stack.rest.inject({ method: 'GET', url: path, headers: await bearer(userId) });

  beforeAll(async () => {
    stack = await startTestStack();
    url = stack.database.adminUrl;
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('bearer authentication', () => {
    it.each([
      ['GET', '/auth/profile'],
      ['PUT', '/auth/profile'],
      ['POST', '/merchant/registration'],
      ['GET', '/merchant/transactions'],
      ['GET', '/merchant/payment-terminal'],
      ['POST', '/merchant/feedback'],
    ] as const)('%s %s without a token, with a malformed or forged one → 401 unauthorized', async (method, path) => {
      for (const authorization of [
        undefined,
        'Bearer nope',
        `Bearer ${(await signUserAccessToken({ userId: uuidv7(), sessionId: uuidv7() }, 'another-secret-0123456789-0123456789')).token}`,
      ]) {
        const res = await stack.rest.inject({
          method,
          url: path,
          headers: authorization ? { authorization } : {},
          payload: method === 'GET' ? undefined : {},
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'unauthorized' });
      }
    });
  });

  describe('GET/PUT /auth/profile', () => {
    it('answers the user with an empty merchant snapshot, then changes fields (email resets email_verified)', async () => {
      const user = await createUser();
      await adminQuery(url, `update merchant.users set email = 'old@example.com', email_verified_at = now() where id = $1`, [user.id]);
      const before = await get('/auth/profile', user.id);
      expect(before.statusCode).toBe(200);
      expect(before.json()).toMatchObject({
        user_id: user.id,
        phone: user.phone,
        phone_verified: true,
        email: 'old@example.com',
        email_verified: true,
        merchant_id: null,
        merchant_status: null,
      });

      const res = await stack.rest.inject({
        method: 'PUT',
        url: '/auth/profile',
        headers: await bearer(user.id),
        payload: {
          full_name: ' Sari Dewi ',
          nik: '7371010101900001',
          gender: 'female',
          address_line: 'Jl. Somba Opu 1',
          avatar_url: 'https://cdn.example.com/a.png',
          email: 'New@Example.com',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        full_name: 'Sari Dewi',
        display_name: 'Sari Dewi',
        nik: '7371010101900001',
        gender: 'female',
        email: 'new@example.com',
        email_verified: false,
      });
      // The same email again keeps its (un)verified state; absent fields are kept.
      const again = await stack.rest.inject({
        method: 'PUT',
        url: '/auth/profile',
        headers: await bearer(user.id),
        payload: { email: 'new@example.com' },
      });
      expect(again.json()).toMatchObject({ full_name: 'Sari Dewi', email_verified: false });
    });

    it.each([
      ['nik of 15 digits', { nik: '737101010190000' }],
      ['nik with letters', { nik: '73710101019000AB' }],
      ['an unknown gender', { gender: 'other' }],
      ['an http avatar', { avatar_url: 'http://cdn.example.com/a.png' }],
      ['a non-URL avatar', { avatar_url: 'avatar.png' }],
      ['a malformed email', { email: 'not-an-email' }],
      ['a too long name', { full_name: 'x'.repeat(101) }],
    ])('refuses %s with 400 and changes nothing', async (_name, payload) => {
      const user = await createUser();
      const res = await stack.rest.inject({
        method: 'PUT',
        url: '/auth/profile',
        headers: await bearer(user.id),
        payload: { full_name: 'Kept', ...payload },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request' });
      const [row] = await adminQuery<{ full_name: string | null }>(url, 'select full_name from merchant.users where id = $1', [user.id]);
      expect(row.full_name).toBeNull();
    });
  });

  describe('POST /merchant/registration', () => {
    it('stores a pending request with the derived type, scale and referral; the profile shows it in progress', async () => {
      const user = await createUser();
      const res = await post(
        '/merchant/registration',
        user.id,
        registration({ referral_code: 'demoref', merchant_type: 'ignored', business_scale_name: 'ignored' }),
      );
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        status: 'pending',
        merchant: {
          merchant_name: 'Kopi Senja',
          business_type_name: 'Kedai Kopi',
          average_monthly_revenue: 30_000_000,
          employee_count: 3,
          business_scale_name: 'Usaha Mikro',
          merchant_status: 'pending',
          contact_phone: '+6281255990001',
        },
        profile: {
          user_id: user.id,
          merchant_status: 'pending',
          merchant_business_type_id: 2,
          merchant_terms_of_service_accepted: true,
          merchant_privacy_policy_accepted: false,
        },
      });
      expect(body.merchant.merchant_code).toMatch(/^MRC-[0-9A-Z]{10}$/);
      const [row] = await adminQuery<Record<string, unknown>>(url, 'select * from merchant.merchant_registrations where id = $1', [
        body.merchant.id,
      ]);
      expect(row).toMatchObject({
        status: 'pending',
        referral_code: 'DEMOREF',
        business_scale_code: 'micro',
        mcc: '5814',
        contact_email: 'senja@example.com',
      });
      expect((await get('/auth/profile', user.id)).json()).toMatchObject({
        merchant_id: body.merchant.id,
        merchant_status: 'pending',
        merchant_name: 'Kopi Senja',
      });
      // No merchant exists yet.
      expect(await adminQuery(url, 'select id from merchant.merchants where id = $1', [body.merchant.id])).toHaveLength(0);
      // Another user sees none of it: its own profile, no merchant, and nothing of this request in its views.
      const other = await createUser();
      expect((await get('/auth/profile', other.id)).json()).toMatchObject({ user_id: other.id, merchant_id: null, merchant_name: null });
      expect((await get('/merchant/payment-terminal', other.id)).json()).toMatchObject({ merchant_id: null });
    });

    it('derives the larger scale when revenue and employees disagree; an unknown referral code is a direct registration', async () => {
      const user = await createUser();
      const res = await post(
        '/merchant/registration',
        user.id,
        registration({ average_monthly_revenue: 10_000_000, employee_count: 25, referral_code: 'NOBODY' }),
      );
      expect(res.json().merchant.business_scale_name).toBe('Usaha Menengah');
      const [row] = await adminQuery<{ referral_code: string | null }>(
        url,
        'select referral_code from merchant.merchant_registrations where user_id = $1',
        [user.id],
      );
      expect(row.referral_code).toBeNull();
    });

    it.each([
      ['no merchant_name', { merchant_name: undefined }],
      ['an empty merchant_name', { merchant_name: '' }],
      ['an unknown business_entity_type (rule 1)', { business_entity_type: 'Koperasi' }],
      ['an unknown business_type_id (rule 2)', { business_type_id: 99999 }],
      ['an inactive business type (rule 2)', { business_type_id: 8 }],
      ['a negative revenue (rule 3)', { average_monthly_revenue: -1 }],
      ['a fractional revenue (rule 3)', { average_monthly_revenue: 1.5 }],
      ['no employee_count (rule 3)', { employee_count: undefined }],
      ['a foreign contact_phone', { contact_phone: '+14155550100' }],
      ['no contact_phone', { contact_phone: undefined }],
      ['a malformed contact_email', { contact_email: 'nope' }],
      ['a 4-digit postal_code', { postal_code: '9011' }],
    ])('refuses %s with 400 and stores nothing', async (_name, over) => {
      const user = await createUser();
      const res = await post('/merchant/registration', user.id, registration(over));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request' });
      expect(await adminQuery(url, 'select id from merchant.merchant_registrations where user_id = $1', [user.id])).toHaveLength(0);
    });

    it('allows one open registration per user, also under concurrent submissions (409 registration_exists)', async () => {
      const user = await createUser();
      const results = await Promise.all(Array.from({ length: 5 }, () => post('/merchant/registration', user.id, registration())));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'registration_exists' });
      expect(await adminQuery(url, 'select id from merchant.merchant_registrations where user_id = $1', [user.id])).toHaveLength(1);
    });

    it('refuses a user who already has a merchant (409 merchant_exists)', async () => {
      const user = await createUser();
      await link(DEMO.otherMerchants[0].id, user.id);
      const res = await post('/merchant/registration', user.id, registration());
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'merchant_exists' });
    });
  });

  describe('GET /merchant/transactions', () => {
    let owner: { id: string };
    const now = new Date();
    const today = makassarPeriod('today', now);
    const month = makassarPeriod('month', now);
    const rows: { at: Date; status: string; gross: number; mdr: number; fee: number }[] = [
      { at: today.start, status: 'success', gross: 100_000, mdr: 700, fee: 1_000 }, // first instant of today, Makassar
      { at: new Date(today.end.getTime() - 1), status: 'success', gross: 50_000, mdr: 350, fee: 500 }, // last instant of today
      { at: new Date(today.start.getTime() + 60_000), status: 'failed', gross: 70_000, mdr: 0, fee: 0 }, // listed, not summed
      { at: new Date(today.start.getTime() - 1), status: 'success', gross: 9_000, mdr: 63, fee: 90 }, // yesterday
      { at: month.start, status: 'success', gross: 20_000, mdr: 140, fee: 200 }, // first instant of the month
      { at: new Date(month.start.getTime() - 1), status: 'success', gross: 1_000, mdr: 7, fee: 10 }, // last month
    ];
    const rowsIn = (from: Date, before: Date) => rows.filter((r) => r.at >= from && r.at < before);
    const successIn = (from: Date, before: Date) => {
      const hits = rowsIn(from, before).filter((r) => r.status === 'success');
      const sum = (amount: (r: (typeof rows)[number]) => number) => hits.reduce((a, r) => a + amount(r), 0);
      return { count: hits.length, gross: sum((r) => r.gross), mdr: sum((r) => r.mdr), fee: sum((r) => r.fee) };
    };

    // The single-counter demo warung: it has no seeded history (the referred demo merchants have 13 months).
    beforeAll(async () => {
      owner = await createUser();
      await link(DEMO.otherMerchants[0].id, owner.id);
      for (const r of rows) {
        const id = uuidv7();
        await adminQuery(
          url,
          `insert into "transaction".transactions (id, merchant_id, transaction_code, status, gross_amount, mdr_rate, mdr_fee_amount, net_amount_after_mdr, platform_fee,
             payer_bank_name, transaction_at, created_at, updated_at) values ($1, $2, $3, $4, $5, '0.0070', $6, $7, $8, 'Bank Uji', $9, $9, $9)`,
          [id, DEMO.otherMerchants[0].id, `TX-${id.slice(-8)}`, r.status, r.gross, r.mdr, r.gross - r.mdr, r.fee, r.at],
        );
      }
    });

    // On the first of a month the month's first instant is today's too: the expected figures come from the rows.
    it('today: success-only summary, net = gross − MDR − service fees, bounds in +08:00, items in +08:00', async () => {
      const res = await get('/merchant/transactions', owner.id);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const expected = successIn(today.start, today.end);
      expect(expected.gross).toBeGreaterThanOrEqual(150_000);
      expect(body).toMatchObject({
        merchant_id: DEMO.otherMerchants[0].id,
        merchant_status: 'active',
        period: 'today',
        period_start_at: today.startAt,
        period_end_at: today.endAt,
        summary: {
          gross_amount: expected.gross,
          mdr_fee_amount: expected.mdr,
          service_fee_amount: expected.fee,
          net_amount: expected.gross - expected.mdr - expected.fee,
          transaction_count: expected.count,
        },
      });
      expect(body.period_start_at).toMatch(/T00:00:00\+08:00$/);
      expect(body.items).toHaveLength(rowsIn(today.start, today.end).length);
      expect(body.items[0]).toMatchObject({
        transaction_status: 'success',
        gross_amount: 50_000,
        mdr_rate: 0.007,
        mdr_fee_amount: 350,
        net_amount_after_mdr: 49_650,
        daily_service_fee_amount: 500,
        payment_channel: 'Bank Uji',
      });
      expect(body.items[0].transaction_at).toMatch(/T23:59:59\.999\+08:00$/);
    });

    it('month and year include the earlier transactions; an unknown period is 400', async () => {
      const monthBody = (await get('/merchant/transactions?period=month', owner.id)).json();
      const expected = successIn(month.start, month.end);
      expect(monthBody.summary).toMatchObject({ transaction_count: expected.count, gross_amount: expected.gross });
      expect(monthBody.period_start_at).toBe(month.startAt);
      const year = (await get('/merchant/transactions?period=year', owner.id)).json();
      const yearBounds = makassarPeriod('year', new Date());
      expect(year.summary.transaction_count).toBe(successIn(yearBounds.start, yearBounds.end).count);
      expect(year.period_start_at).toMatch(/-01-01T00:00:00\+08:00$/);
      expect((await get('/merchant/transactions?period=decade', owner.id)).statusCode).toBe(400);
    });

    it('a user without a merchant, or with a suspended one, gets a zero summary and no items', async () => {
      const loner = await createUser();
      expect((await get('/merchant/transactions?period=week', loner.id)).json()).toMatchObject({
        merchant_id: null,
        period: 'week',
        summary: { gross_amount: 0, mdr_fee_amount: 0, service_fee_amount: 0, net_amount: 0, transaction_count: 0 },
        items: [],
      });
      const suspendedOwner = await createUser();
      await link(DEMO.otherMerchants[0].id, suspendedOwner.id);
      await adminQuery(url, `update merchant.merchants set status = 'suspended' where id = $1`, [DEMO.otherMerchants[0].id]);
      const body = (await get('/merchant/transactions', suspendedOwner.id)).json();
      expect(body).toMatchObject({
        merchant_id: DEMO.otherMerchants[0].id,
        merchant_status: 'suspended',
        summary: { transaction_count: 0 },
        items: [],
      });
      await adminQuery(url, `update merchant.merchants set status = 'active' where id = $1`, [DEMO.otherMerchants[0].id]);
    });

    it('the transaction and outlet subgraphs refuse a user principal narrowed to another merchant (403)', async () => {
      const client = new GatewayClient(stack.gatewayUrl, 'core-test', stack.config.secrets.serviceTokenSecret, 5_000);
      const operation = ViewerMerchantTransactionsDocument;
      const terminal = ViewerPaymentTerminalDocument;
      const acting = { kind: 'user' as const, userId: owner.id, merchantId: DEMO.merchantId, role: 'owner' as const, outletIds: [] };
      const variables = { from: today.start.toISOString(), before: today.end.toISOString(), limit: 10 };
      await expect(client.execute(operation, variables, { requestId: 'x', acting })).rejects.toMatchObject({
        status: 403,
        code: 'forbidden',
      });
      await expect(client.execute(terminal, { withTerminal: true }, { requestId: 'y', acting })).rejects.toBeInstanceOf(HttpError);
      await expect(
        client.execute(operation, variables, { requestId: 'z', acting: { kind: 'user', userId: owner.id } }),
      ).rejects.toMatchObject({ status: 403 });
    });
  });

  describe('GET /merchant/payment-terminal', () => {
    it('an active merchant: its primary terminal, non-deleted pairings and the latest activity, newest first', async () => {
      const owner = await createUser();
      await link(DEMO.merchantId, owner.id);
      const res = await get('/merchant/payment-terminal', owner.id);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        merchant_id: DEMO.merchantId,
        merchant_status: 'active',
        terminal: {
          terminal_code: expect.stringMatching(/^TDEMO000[12]$/),
          brand_name: 'Sunmi',
          device_type_name: 'Soundbox',
          status: 'online',
          nmid: expect.stringMatching(/^ID/),
        },
      });
      expect(body.terminal.last_seen_at).toMatch(/\+08:00$/);
      expect(body.psp_pairings.map((p: { psp_code: string }) => p.psp_code)).toEqual(['BDEMO', 'QRISLINK']);
      expect(body.activity_logs.length).toBeGreaterThan(1);
      const times = body.activity_logs.map((l: { occurred_at: string }) => Date.parse(l.occurred_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it('a merchant that is not active: 200 with terminal null; a user without a merchant: nulls and empty lists', async () => {
      const owner = await createUser();
      await link(DEMO.otherMerchants[0].id, owner.id);
      await adminQuery(url, `update merchant.merchants set status = 'suspended' where id = $1`, [DEMO.otherMerchants[0].id]);
      const body = (await get('/merchant/payment-terminal', owner.id)).json();
      expect(body).toMatchObject({ merchant_id: DEMO.otherMerchants[0].id, merchant_status: 'suspended', terminal: null });
      await adminQuery(url, `update merchant.merchants set status = 'active' where id = $1`, [DEMO.otherMerchants[0].id]);
      const loner = await createUser();
      expect((await get('/merchant/payment-terminal', loner.id)).json()).toEqual({
        merchant_id: null,
        merchant_name: null,
        merchant_status: null,
        terminal: null,
        psp_pairings: [],
        activity_logs: [],
      });
    });
  });

  describe('POST /merchant/feedback', () => {
    it('stores feedback with the user’s merchant and source mobile_app', async () => {
      const owner = await createUser();
      await link(DEMO.otherMerchants[1].id, owner.id);
      const res = await post('/merchant/feedback', owner.id, {
        category_code: 'payment_issue',
        category_label: 'Masalah pembayaran',
        rating: 4,
        message: 'x'.repeat(2000),
        contact_phone: '0812-5599-0009',
        allow_follow_up: true,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'submitted',
        feedback: {
          merchant_id: DEMO.otherMerchants[1].id,
          category_code: 'payment_issue',
          rating: 4,
          allow_follow_up: true,
          source: 'mobile_app',
        },
      });
      expect(res.json().feedback.created_at).toMatch(/\+08:00$/);
      const [row] = await adminQuery<{ contact_phone: string }>(url, 'select contact_phone from merchant.feedback where id = $1', [
        res.json().feedback.id,
      ]);
      expect(row.contact_phone).toBe('+6281255990009');
    });

    it.each([
      ['rating 0', { rating: 0 }],
      ['rating 6', { rating: 6 }],
      ['a fractional rating', { rating: 4.5 }],
      ['a message of 2001 characters', { message: 'x'.repeat(2001) }],
      ['an upper-case category_code', { category_code: 'Payment' }],
      ['no category_label', { category_label: undefined }],
      ['a foreign contact_phone', { contact_phone: '+4915112345678' }],
    ])('refuses %s with 400 and stores nothing', async (_name, over) => {
      const user = await createUser();
      const res = await post('/merchant/feedback', user.id, { category_code: 'other', category_label: 'Lainnya', rating: 5, ...over });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request' });
      expect(await adminQuery(url, 'select id from merchant.feedback where user_id = $1', [user.id])).toHaveLength(0);
    });
  });
});
