import { createHmac } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { setBankWebhook } from '@scripts/database-tasks';
import { sessionFor } from '../support/core-auth';
import { HttpRecorder } from '../support/http-recorder';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/** Internal endpoints of the core API: registration review and approval, status decisions, transaction status. */
describe('Core internal endpoints', () => {
  let stack: TestStack;
  let url: string;
  let messaging: HttpRecorder;
  let webhooks: HttpRecorder;
  let push: HttpRecorder;
  let phoneSeq = 0;
  const key = () => ({ 'x-internal-api-key': stack.config.secrets.internalApiKey });
  const internal = (path: string, payload: unknown) =>
    stack.rest.inject({ method: 'POST', url: path, headers: key(), payload: payload as object });

  const createUser = async () => {
    const id = uuidv7();
    const phone = `+62812660${String(++phoneSeq).padStart(5, '0')}`;
    await adminQuery(url, 'insert into merchant.users (id, phone, created_at, updated_at) values ($1, $2, now(), now())', [id, phone]);
    return { id, phone };
  };
  const register = async (userId: string, over: Record<string, unknown> = {}) => {
    const res = await stack.rest.inject({
      method: 'POST',
      url: '/merchant/registration',
      headers: await sessionFor(stack, userId),
      payload: {
        merchant_name: 'Toko Rujukan Baru',
        business_entity_type: 'Badan Usaha',
        business_type_id: 1,
        average_monthly_revenue: 200_000_000,
        employee_count: 6,
        contact_phone: '081266000999',
        city_name: 'Makassar',
        referral_code: 'DEMOREF',
        device_fee_service_accepted: true,
        terms_of_service_accepted: true,
        privacy_policy_accepted: true,
        ...over,
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json().merchant.id as string;
  };
  const signLookup = (target: string) => {
    const timestamp = new Date().toISOString();
    const signature = createHmac('sha256', DEMO.bank.lookupSecret).update(`GET\n${target}\n${timestamp}\n`).digest('hex');
    return { 'x-api-key-id': DEMO.bank.lookupKeyId, 'x-timestamp': timestamp, 'x-signature': signature };
  };

  beforeAll(async () => {
    messaging = await new HttpRecorder(() => ({
      status: 200,
      body: { messaging_product: 'whatsapp', messages: [{ id: `wamid.${uuidv7()}` }] },
    })).start();
    webhooks = await new HttpRecorder(() => ({ status: 200, body: {} })).start();
    push = await new HttpRecorder(({ json }) =>
      json?.message?.token === 'dead-token'
        ? { status: 404, body: { error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } } }
        : { status: 200, body: { name: `projects/demo/messages/${uuidv7()}` } },
    ).start();
    stack = await startTestStack({
      MESSAGING_PROVIDER_URL: `${messaging.url}/v1/messages`,
      MESSAGING_PROVIDER_TOKEN: 'messaging-token',
      PUSH_PROVIDER_URL: `${push.url}/v1/send`,
      PUSH_PROVIDER_TOKEN: 'push-token',
      JOBS_CONCURRENCY: '0',
    });
    url = stack.database.adminUrl;
    await setBankWebhook(stack.config, url, { bankCode: DEMO.bank.code, url: `${webhooks.url}/hook` });
  });
  afterAll(async () => {
    await stack?.close();
    await messaging?.stop();
    await webhooks?.stop();
    await push?.stop();
  });

  it.each([
    '/internal/merchant/registration/review',
    '/internal/merchant/registration/approve',
    '/internal/merchant/status',
    '/internal/transactions/transaction-status',
    '/internal/transactions/transaction-status/bulk',
  ])('%s: missing or wrong X-Internal-API-Key → 401 unauthorized (a user bearer is no key)', async (path) => {
    const user = await createUser();
    for (const headers of [{}, { 'x-internal-api-key': 'wrong' }, await sessionFor(stack, user.id)]) {
      const res = await stack.rest.inject({ method: 'POST', url: path, headers, payload: {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized' });
    }
  });

  describe('registration → review → approve', () => {
    it('makes an active merchant owned by the user, visible to its (tier-1) bank and to the referring partner', async () => {
      const user = await createUser();
      const requestId = await register(user.id);
      // The referring partner sees the registration under review as `pending_review`, with the id approval keeps.
      const partnerToken = (
        await stack.rest.inject({
          method: 'POST',
          url: '/api/partner/v1/auth/token',
          payload: {
            credential_key: DEMO.partner.credentials.contractA.credentialKey,
            credential_secret: DEMO.partner.credentials.contractA.secret,
          },
        })
      ).json().access_token;
      const referred = async () =>
        (
          await stack.rest.inject({
            method: 'GET',
            url: `/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants`,
            headers: { authorization: `Bearer ${partnerToken}` },
          })
        )
          .json()
          .items.find((item: { merchant_id: string }) => item.merchant_id === requestId);
      expect(await referred()).toMatchObject({
        merchant_id: requestId,
        merchant_status: 'pending_review',
        access_type: 'referral',
        referral_code: 'DEMOREF',
      });

      const reviewed = await internal('/internal/merchant/registration/review', {
        phone: user.phone.replace('+62', '0'),
        review_notes: 'dokumen lengkap',
      });
      expect(reviewed.statusCode).toBe(200);
      expect(reviewed.json()).toMatchObject({
        status: 'pending_review',
        request: { id: requestId, merchant_status: 'pending_review' },
        profile: { user_id: user.id, merchant_status: 'pending_review' },
      });
      const [request] = await adminQuery<Record<string, unknown>>(
        url,
        'select status, review_notes from merchant.merchant_registrations where id = $1',
        [requestId],
      );
      expect(request).toEqual({ status: 'pending_review', review_notes: 'dokumen lengkap' });

      const approved = await internal('/internal/merchant/registration/approve', {
        request_id: requestId,
        bank_code: 'bdemo',
        reviewed_by_user_id: uuidv7(),
      });
      expect(approved.statusCode).toBe(200);
      const body = approved.json();
      expect(body).toMatchObject({
        status: 'active',
        merchant: { id: requestId, merchant_status: 'active' },
        profile: { user_id: user.id, merchant_id: requestId, merchant_status: 'active' },
      });
      expect(body.profile).toMatchObject({
        merchant_device_fee_service_accepted: true,
        merchant_terms_of_service_accepted: true,
        merchant_privacy_policy_accepted: true,
        merchant_business_scale_name: 'Usaha Kecil',
      });
      expect(body.profile.merchant_reviewed_at).toMatch(/\+08:00$/);

      expect(await adminQuery(url, 'select id from merchant.merchant_registrations where id = $1', [requestId])).toHaveLength(0);
      const [merchant] = await adminQuery<Record<string, unknown>>(
        url,
        'select status, kyc_status, referral_code, reviewed_at, category_code from merchant.merchants where id = $1',
        [requestId],
      );
      expect(merchant).toMatchObject({ status: 'active', kyc_status: 'verified', referral_code: 'DEMOREF', category_code: '5812' });
      expect(merchant.reviewed_at).not.toBeNull();
      expect(
        await adminQuery(url, `select role from merchant.merchant_users where merchant_id = $1 and user_id = $2`, [requestId, user.id]),
      ).toEqual([{ role: 'owner' }]);
      expect(await adminQuery(url, `select code, is_default from outlet.outlets where merchant_id = $1`, [requestId])).toEqual([
        { code: 'PUSAT', is_default: true },
      ]);
      // The referral trigger gave the partner access.
      expect(
        await adminQuery(url, `select access_type from merchant.partner_merchant_access where merchant_id = $1 and partner_id = $2`, [
          requestId,
          DEMO.partner.id,
        ]),
      ).toEqual([{ access_type: 'referral' }]);

      // A retry (the caller lost the answer) completes again without a second merchant or outlet.
      const retry = await internal('/internal/merchant/registration/approve', { request_id: requestId });
      expect(retry.statusCode).toBe(200);
      expect(retry.json()).toMatchObject({ status: 'active', merchant: { id: requestId } });
      expect(await adminQuery(url, `select id from outlet.outlets where merchant_id = $1`, [requestId])).toHaveLength(1);

      // Its bank (the tier-1 PSP) sees it before activation; not yet announced (no NMID).
      const target = `/api/psp/v1/merchants/${requestId}`;
      const lookup = await stack.rest.inject({ method: 'GET', url: target, headers: signLookup(target) });
      expect(lookup.statusCode).toBe(200);
      expect(await adminQuery(url, 'select event from merchant.webhook_deliveries where merchant_id = $1', [requestId])).toEqual([]);
      // The PSP assigns an NMID: the first activation, announced, and the merchant is found by its NMID.
      const nmid = 'ID2026112400777';
      const path = `${target}/nmid-assignment`;
      const raw = JSON.stringify({ nmid });
      const timestamp = new Date().toISOString();
      const signature = createHmac('sha256', DEMO.bank.lookupSecret).update(`PATCH\n${path}\n${timestamp}\n${raw}`).digest('hex');
      const assigned = await stack.rest.inject({
        method: 'PATCH',
        url: path,
        payload: raw,
        headers: {
          'content-type': 'application/json',
          'x-api-key-id': DEMO.bank.lookupKeyId,
          'x-timestamp': timestamp,
          'x-signature': signature,
        },
      });
      expect(assigned.statusCode).toBe(200);
      expect(await adminQuery(url, 'select event from merchant.webhook_deliveries where merchant_id = $1', [requestId])).toEqual([
        { event: 'merchant.activated' },
      ]);
      const byNmid = `/api/psp/v1/merchants/by-nmid/${nmid}`;
      const found = await stack.rest.inject({ method: 'GET', url: byNmid, headers: signLookup(byNmid) });
      expect(found.statusCode).toBe(200);
      expect(JSON.stringify(found.json())).toContain(requestId);
      // The referring partner lists it.
      const token = await stack.rest.inject({
        method: 'POST',
        url: '/api/partner/v1/auth/token',
        payload: {
          credential_key: DEMO.partner.credentials.contractB.credentialKey,
          credential_secret: DEMO.partner.credentials.contractB.secret,
        },
      });
      const list = await stack.rest.inject({
        method: 'GET',
        url: `/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants`,
        headers: { authorization: `Bearer ${token.json().access_token}` },
      });
      expect(list.statusCode).toBe(200);
      expect(JSON.stringify(list.json())).toContain(requestId);
      expect(await referred()).toMatchObject({ merchant_id: requestId, merchant_status: 'active', access_type: 'referral' });
    });

    it('review/approve of an unknown request → 404; neither request_id nor phone → 400', async () => {
      for (const path of ['/internal/merchant/registration/review', '/internal/merchant/registration/approve']) {
        expect((await internal(path, { request_id: uuidv7() })).statusCode).toBe(404);
        expect((await internal(path, { phone: '081266099999' })).statusCode).toBe(404);
        const res = await internal(path, { review_notes: 'x' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'bad_request' });
      }
      const user = await createUser();
      const requestId = await register(user.id);
      const res = await internal('/internal/merchant/registration/approve', { request_id: requestId, bank_code: 'NOBANK' });
      expect(res.statusCode).toBe(400);
      expect(await adminQuery(url, 'select id from merchant.merchant_registrations where id = $1', [requestId])).toHaveLength(1);
    });
  });

  describe('POST /internal/merchant/status', () => {
    const merchantId = DEMO.otherMerchants[1].id;
    const deliveries = async () =>
      (
        await adminQuery<{ n: string }>(url, 'select count(*)::text as n from merchant.webhook_deliveries where merchant_id = $1', [
          merchantId,
        ])
      )[0].n;
    const setStatus = (status: string) => adminQuery(url, 'update merchant.merchants set status = $2 where id = $1', [merchantId, status]);

    it.each([
      ['active', 'suspended', 'merchant.suspended'],
      ['active', 'deleted', 'merchant.terminated'],
      ['suspended', 'active', 'merchant.reactivated'],
      ['suspended', 'deleted', 'merchant.terminated'],
    ])('%s → %s is allowed and queues %s in the outbox', async (from, to, event) => {
      await setStatus(from);
      const before = Number(await deliveries());
      const res = await internal('/internal/merchant/status', {
        merchant_id: merchantId,
        target_status: to,
        review_notes: 'keputusan tinjauan',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: to, merchant: { id: merchantId, merchant_status: to }, profile: null });
      expect(Number(await deliveries())).toBe(before + 1);
      const [last] = await adminQuery<{ event: string }>(
        url,
        'select event from merchant.webhook_deliveries where merchant_id = $1 order by created_at desc limit 1',
        [merchantId],
      );
      expect(last.event).toBe(event);
      const [row] = await adminQuery<{ review_notes: string }>(url, 'select review_notes from merchant.merchants where id = $1', [
        merchantId,
      ]);
      expect(row.review_notes).toBe('keputusan tinjauan');
    });

    it.each([
      ['active', 'active'],
      ['suspended', 'suspended'],
      ['deleted', 'active'],
      ['deleted', 'suspended'],
      ['draft', 'active'],
      ['inactive', 'active'],
    ])('%s → %s is refused: 409 invalid_transition, nothing written', async (from, to) => {
      await setStatus(from);
      const before = await deliveries();
      const res = await internal('/internal/merchant/status', { merchant_id: merchantId, target_status: to });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'invalid_transition', error: `cannot move a merchant from ${from} to ${to}` });
      expect(await deliveries()).toBe(before);
      expect(
        (await adminQuery<{ status: string }>(url, 'select status from merchant.merchants where id = $1', [merchantId]))[0].status,
      ).toBe(from);
    });

    it('suspended → active with an expired KYC is refused: 409 kyc_expired, nothing written (the KYC is renewed instead)', async () => {
      await setStatus('suspended');
      await adminQuery(url, `update merchant.merchants set kyc_expires_at = now() - interval '1 day' where id = $1`, [merchantId]);
      const before = await deliveries();
      const res = await internal('/internal/merchant/status', { merchant_id: merchantId, target_status: 'active' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'kyc_expired', error: expect.stringContaining('renew it first') });
      expect(await deliveries()).toBe(before);
      await adminQuery(url, `update merchant.merchants set kyc_expires_at = now() + interval '1 year' where id = $1`, [merchantId]);
    });

    it('finds the merchant by its owner’s phone; unknown merchant → 404; bad target → 400', async () => {
      await setStatus('active');
      const owner = await createUser();
      await adminQuery(
        url,
        `insert into merchant.merchant_users (id, merchant_id, user_id, role, created_at) values ($1, $2, $3, 'owner', now())`,
        [uuidv7(), merchantId, owner.id],
      );
      const res = await internal('/internal/merchant/status', { phone: owner.phone, target_status: 'suspended', reason: 'violation' });
      expect(res.json()).toMatchObject({ status: 'suspended', profile: { user_id: owner.id, merchant_status: 'suspended' } });
      expect((await internal('/internal/merchant/status', { merchant_id: uuidv7(), target_status: 'suspended' })).statusCode).toBe(404);
      expect((await internal('/internal/merchant/status', { merchant_id: merchantId, target_status: 'archived' })).statusCode).toBe(400);
      await setStatus('active');
    });
  });

  describe('POST /internal/transactions/transaction-status', () => {
    const outlet = DEMO.outlets[0];
    const callback = (over: Record<string, unknown> = {}) => ({
      referenceNo: `REF-${uuidv7().slice(-8)}`,
      merchantId: outlet.nmid,
      terminalId: 'TDEMO0001',
      amount: '25000.00',
      status: 'PAID',
      ...over,
    });

    it('a success by outlet NMID: resolved merchant and terminal, the owner alerted by message', async () => {
      const owner = await createUser();
      await adminQuery(
        url,
        `insert into merchant.merchant_users (id, merchant_id, user_id, role, created_at) values ($1, $2, $3, 'owner', now())`,
        [uuidv7(), DEMO.merchantId, owner.id],
      );
      const sent = messaging.requests.length;
      const res = await internal('/internal/transactions/transaction-status', callback({ partnerReferenceNo: 'PRN-1' }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'processed',
        partner_reference_no: 'PRN-1',
        transaction_code: 'PRN-1',
        transaction_status: 'success',
        gross_amount: 25_000,
        merchant_id: DEMO.merchantId,
        device_id: 'SBX1-DEMO-0001',
        nmid: outlet.nmid,
        status_changed: false,
        notification_attempted: true,
        notification: { status: 'sent' },
      });
      expect(res.json().notification.sent_count).toBeGreaterThanOrEqual(1);
      const alerts = messaging.requests.slice(sent).filter((r) => r.json?.template?.name === 'merchant_transaction_alert');
      expect(alerts.map((r) => r.json.to)).toContain(owner.phone.slice(1));
    });

    it('status_changed against a stored transaction; non-success is not notified; merchant UUID needs no terminal; MID matches', async () => {
      const res = await internal(
        '/internal/transactions/transaction-status',
        callback({ partnerReferenceNo: 'TRX-DEMO-0001', status: '', responseCode: '4005400' }),
      );
      expect(res.json()).toMatchObject({
        transaction_status: 'failed',
        status_changed: true,
        notification_attempted: false,
        notification: { status: 'not_attempted', sent_count: 0 },
      });
      const byUuid = await internal('/internal/transactions/transaction-status', {
        referenceNo: 'R-U',
        merchantId: DEMO.merchantId,
        amount: '1000',
        status: 'waiting',
      });
      expect(byUuid.json()).toMatchObject({ merchant_id: DEMO.merchantId, terminal_id: null, transaction_status: 'pending' });
      const byMid = await internal(
        '/internal/transactions/transaction-status',
        callback({ merchantId: 'MDEMO0002', terminalId: 'TDEMO0002', status: 'reverse' }),
      );
      expect(byMid.json()).toMatchObject({ merchant_id: DEMO.merchantId, nmid: DEMO.outlets[1].nmid, transaction_status: 'reversed' });
    });

    it.each([
      ['a fractional amount', { amount: '100.50' }, 400, 'bad_request'],
      ['a negative amount', { amount: '-100' }, 400, 'bad_request'],
      ['junk amount', { amount: '1e3' }, 400, 'bad_request'],
      ['no referenceNo', { referenceNo: undefined }, 400, 'bad_request'],
      ['neither status nor responseCode', { status: undefined }, 400, 'bad_request'],
      ['an NMID without terminalId', { terminalId: undefined }, 400, 'bad_request'],
      ['an unknown merchantId', { merchantId: 'ID9999999999999' }, 404, 'merchant_not_found'],
      ['an unknown merchant UUID', { merchantId: uuidv7() }, 404, 'merchant_not_found'],
      ['an unknown terminalId', { terminalId: 'NOPE' }, 404, 'terminal_not_found'],
    ])('%s → %d %s', async (_name, over, status, code) => {
      const res = await internal('/internal/transactions/transaction-status', callback(over));
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ code });
    });

    it('alerts each owner by push and message as their account settings allow; counts sent, failed and invalidated', async () => {
      const merchant = DEMO.otherMerchants[0];
      const success = () =>
        internal('/internal/transactions/transaction-status', {
          referenceNo: `R-${uuidv7().slice(-6)}`,
          merchantId: merchant.id,
          amount: '12000',
          status: 'success',
        });
      expect((await success()).json()).toMatchObject({
        notification_attempted: true,
        notification: { status: 'no_recipient', sent_count: 0 },
      });

      const [a, b] = [await createUser(), await createUser()];
      for (const user of [a, b]) {
        await adminQuery(
          url,
          `insert into merchant.merchant_users (id, merchant_id, user_id, role, created_at) values ($1, $2, $3, 'owner', now())`,
          [uuidv7(), merchant.id, user.id],
        );
      }
      for (const [n, token] of ['good-token', 'dead-token'].entries()) {
        await adminQuery(
          url,
          `insert into merchant.push_tokens (id, user_id, device_hash, token, created_at, updated_at) values ($1, $2, $3, $4, now(), now())`,
          [uuidv7(), a.id, `device-${n}`, token],
        );
      }
      const settings = (userId: string, pushOn: boolean, transactionsOn: boolean) =>
        adminQuery(
          url,
          `insert into merchant.account_settings values ($1, $2, $3, true, true, 'id', true, false, now())
           on conflict (user_id) do update set notification_push_enabled = $2, notification_transactions_enabled = $3`,
          [userId, pushOn, transactionsOn],
        );
      await settings(b.id, true, false);
      const pushesBefore = push.requests.length;
      const both = (await success()).json();
      expect(both.notification).toEqual({ status: 'sent', sent_count: 2, failed_count: 0, invalidated_count: 1 });
      expect(push.requests.slice(pushesBefore).map((r) => r.json.message.data)).toContainEqual(
        expect.objectContaining({ type: 'transaction', amount: '12000', gross_amount: '12000' }),
      );
      expect(
        await adminQuery(url, `select token from merchant.push_tokens where user_id = $1 and invalidated_at is not null`, [a.id]),
      ).toEqual([{ token: 'dead-token' }]);

      await settings(a.id, false, true);
      expect((await success()).json().notification).toEqual({ status: 'sent', sent_count: 1, failed_count: 0, invalidated_count: 0 });
      await settings(a.id, true, false);
      expect((await success()).json().notification).toEqual({ status: 'opted_out', sent_count: 0, failed_count: 0, invalidated_count: 0 });
    });

    it('bulk: one result per item in order, bad items do not fail the batch; more than 500 items → 400', async () => {
      const res = await internal('/internal/transactions/transaction-status/bulk', {
        items: [
          callback({ status: 'pending' }),
          callback({ amount: '1.5' }),
          callback({ merchantId: 'ID9999999999999' }),
          'junk',
          callback({ responseCode: '202', status: null }),
        ],
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ processed_count: 2, error_count: 3 });
      expect(body.items.map((i: { index: number; status: string }) => [i.index, i.status])).toEqual([
        [0, 'processed'],
        [1, 'error'],
        [2, 'error'],
        [3, 'error'],
        [4, 'processed'],
      ]);
      expect(body.items[1].error.code).toBe('bad_request');
      expect(body.items[2].error.code).toBe('merchant_not_found');
      expect(body.items[4].result.transaction_status).toBe('pending');
      const tooMany = await internal('/internal/transactions/transaction-status/bulk', {
        items: Array.from({ length: 501 }, () => callback()),
      });
      expect(tooMany.statusCode).toBe(400);
      expect((await internal('/internal/transactions/transaction-status/bulk', { items: [] })).statusCode).toBe(400);
      expect((await internal('/internal/transactions/transaction-status/bulk', {})).statusCode).toBe(400);
    });
  });
});
