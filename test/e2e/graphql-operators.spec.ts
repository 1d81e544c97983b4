import { DEMO } from '@lib/domain/demo/demo-ids';
import { codes, gql, operatorHeaders } from '../support/graphql';
import { INTERNAL_URLS } from '../support/outbound-urls';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/** The dashboards' operations, each with its operator-role check; secrets are shown once. */
describe('GraphQL operations for operators', () => {
  let stack: TestStack;
  const run = async (roles: Parameters<typeof operatorHeaders>[1], query: string, variables: Record<string, unknown> = {}) =>
    gql(stack, query, variables, await operatorHeaders(stack, roles));

  beforeAll(async () => {
    // No dispatcher: deliveries stay as queued, for the listing and re-send checks.
    stack = await startTestStack({ JOBS_CONCURRENCY: '0' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('searches merchants by code, name, phone and NMID, and pages them', async () => {
    const search = async (query: string) =>
      (
        await run(['support'], `query($q: String) { merchantSearch(query: $q, first: 10) { items { merchantCode } } }`, { q: query })
      ).data.merchantSearch.items.map((m: { merchantCode: string }) => m.merchantCode);
    const sari = DEMO.otherMerchants[0];
    expect(await search(DEMO.merchantCode.toLowerCase())).toEqual([DEMO.merchantCode]);
    expect(await search('bu sari')).toEqual([sari.code]);
    expect(await search(`0${sari.phone.slice(3)}`)).toEqual([sari.code]);
    const [{ primary_nmid: nmid }] = await adminQuery<{ primary_nmid: string }>(
      stack.database.adminUrl,
      `select primary_nmid from merchant.merchants where id = $1`,
      [sari.id],
    );
    expect(await search(nmid)).toEqual([sari.code]);
    expect(await search('50%_')).toEqual([]);
    const first = await run(['support'], `{ merchantSearch(first: 2) { items { id } hasMore nextCursor } }`);
    const next = await run(['support'], `query($after: String) { merchantSearch(first: 2, after: $after) { items { id } } }`, {
      after: first.data.merchantSearch.nextCursor,
    });
    expect(first.data.merchantSearch.hasMore).toBe(true);
    expect(next.data.merchantSearch.items[0].id > first.data.merchantSearch.items[1].id).toBe(true);
    expect(codes(await run(['support'], `{ merchantSearch(first: 101) { hasMore } }`))).toEqual(['BAD_USER_INPUT']);
  });

  it('shows the registration review queue, oldest first, and lets only reviewers and admins decide', async () => {
    const url = stack.database.adminUrl;
    const userId = '019a0000-0000-7000-8000-0000000c0001';
    await adminQuery(url, `insert into merchant.users (id, phone, created_at, updated_at) values ($1, '+6281299990001', now(), now())`, [
      userId,
    ]);
    const [type] = await adminQuery<{ id: number; code: string; name: string }>(
      url,
      `select id, code, name from merchant.business_types order by id limit 1`,
    );
    const [scale] = await adminQuery<{ code: string; name: string }>(
      url,
      `select code, name from merchant.business_scales order by sort_order limit 1`,
    );
    await adminQuery(
      url,
      `insert into merchant.merchant_registrations (id, user_id, status, merchant_code, merchant_name, business_entity_type, business_type_id, business_type_code,
         business_type_name, mcc, average_monthly_revenue, employee_count, business_scale_code, business_scale_name, contact_phone, created_at, updated_at)
       values ($1, $2, 'pending', 'MRC-QUEUE001', 'Toko Antri', 'Perseorangan', $3, $4, $5, '5411', 5000000, 2, $6, $7, '+6281299990001', now(), now())`,
      ['019a0000-0000-7000-8000-0000000c0101', userId, type.id, type.code, type.name, scale.code, scale.name],
    );
    const queue = await run(['support'], `{ registrationQueue { id status merchantCode merchantName applicantPhone businessTypeName } }`);
    expect(queue.data.registrationQueue).toContainEqual({
      id: '019a0000-0000-7000-8000-0000000c0101',
      status: 'pending',
      merchantCode: 'MRC-QUEUE001',
      merchantName: 'Toko Antri',
      applicantPhone: '+6281299990001',
      businessTypeName: type.name,
    });
    expect(codes(await run(['support'], `{ registrationQueue(status: "approved") { id } }`))).toEqual(['BAD_USER_INPUT']);
    const review = (roles: Parameters<typeof operatorHeaders>[1]) =>
      run(
        roles,
        `mutation { reviewMerchantRegistration(input: { requestId: "019a0000-0000-7000-8000-0000000c0101", reviewNotes: "cek KTP" }) { status } }`,
      );
    expect(codes(await review(['support']))).toEqual(['FORBIDDEN']);
    expect((await review(['reviewer'])).data.reviewMerchantRegistration.status).toBe('pending_review');
    expect(
      (await run(['support'], `{ registrationQueue(status: "pending_review") { id reviewNotes } }`)).data.registrationQueue,
    ).toContainEqual({
      id: '019a0000-0000-7000-8000-0000000c0101',
      reviewNotes: 'cek KTP',
    });
  });

  it('changes a merchant status with a reason through the lifecycle service (reviewer or admin)', async () => {
    const change = (roles: Parameters<typeof operatorHeaders>[1], status: string, reason?: string) =>
      run(roles, `mutation($input: ChangeMerchantStatusInput!) { changeMerchantStatus(input: $input) { status } }`, {
        input: { merchantId: DEMO.otherMerchants[0].id, targetStatus: status, ...(reason ? { reason } : {}) },
      });
    expect(codes(await change(['support'], 'suspended', 'violation'))).toEqual(['FORBIDDEN']);
    expect((await change(['reviewer'], 'suspended', 'violation')).data.changeMerchantStatus.status).toBe('suspended');
    const invalid = await change(['admin'], 'suspended', 'violation');
    expect(invalid.errors?.[0].extensions).toEqual(expect.objectContaining({ code: 'CONFLICT', reason: 'invalid_transition' }));
    expect((await change(['admin'], 'active')).data.changeMerchantStatus.status).toBe('active');
  });

  it('partners and credentials: create, issue (secret once, usable at the partner API), list without secrets, grant, revoke', async () => {
    expect(
      codes(
        await run(['bank-manager'], `mutation { createPartner(code: "POPS", name: "Ops Partner", referralCode: "OPSREF") { partnerId } }`),
      ),
    ).toEqual(['FORBIDDEN']);
    const created = await run(
      ['partner-manager'],
      `mutation { createPartner(code: "pops", name: "Ops Partner", referralCode: "opsref") { partnerCode referralCode referrals } }`,
    );
    expect(created.data.createPartner).toEqual({ partnerCode: 'POPS', referralCode: 'OPSREF', referrals: 0 });
    const taken = await run(['admin'], `mutation { createPartner(code: "POPS", name: "Again", referralCode: "OPSREF2") { partnerId } }`);
    expect(taken.errors?.[0].extensions).toEqual(expect.objectContaining({ code: 'CONFLICT', reason: 'partner_taken' }));

    const issued = await run(
      ['partner-manager'],
      `mutation($input: IssuePartnerCredentialInput!) { issuePartnerCredential(input: $input) { credentialKey credentialSecret contract mode } }`,
      {
        input: { partnerCode: 'POPS', name: 'dashboard', contract: 'B', scopes: ['merchant.read', 'transaction.read'] },
      },
    );
    const { credentialKey, credentialSecret } = issued.data.issuePartnerCredential;
    expect(issued.data.issuePartnerCredential).toEqual({
      credentialKey: expect.stringMatching(/^pk_/),
      credentialSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      contract: 'B',
      mode: 'jwt',
    });
    const badScope = await run(
      ['admin'],
      `mutation($input: IssuePartnerCredentialInput!) { issuePartnerCredential(input: $input) { credentialKey } }`,
      {
        input: { partnerCode: 'POPS', name: 'x', contract: 'B', scopes: ['everything'] },
      },
    );
    expect(codes(badScope)).toEqual(['BAD_USER_INPUT']);
    const token = await stack.rest.inject({
      method: 'POST',
      url: '/api/partner/v1/auth/token',
      payload: { credential_key: credentialKey, credential_secret: credentialSecret },
    });
    expect(token.statusCode).toBe(200);

    const listed = await run(['support'], `{ partners { code credentials { credentialKey status secret } } }`);
    const pops = listed.data.partners.find((p: { code: string }) => p.code === 'POPS');
    expect(pops.credentials).toEqual([{ credentialKey, status: 'active', secret: null }]);
    expect(JSON.stringify(listed)).not.toContain(credentialSecret);

    const merchantId = DEMO.otherMerchants[0].id;
    const grant = await run(
      ['partner-manager'],
      `mutation($m: ID!) { grantPartnerAccess(partnerCode: "POPS", merchantId: $m, accessType: "assignment") { accessType } }`,
      { m: merchantId },
    );
    expect(grant.data.grantPartnerAccess.accessType).toBe('assignment');
    const partnerRead = await stack.rest.inject({
      method: 'GET',
      url: `/api/partner/v1/merchants/${merchantId}/transactions`,
      headers: { authorization: `Bearer ${token.json().access_token}` },
    });
    expect(partnerRead.statusCode).toBe(200);
    const ended = await run(
      ['partner-manager'],
      `mutation($m: ID!) { revokePartnerAccess(partnerCode: "POPS", merchantId: $m, accessType: "assignment") }`,
      { m: merchantId },
    );
    expect(ended.data.revokePartnerAccess).toBe(1);
    expect(codes(await run(['support'], `mutation { revokePartnerCredential(credentialKey: "${credentialKey}") { status } }`))).toEqual([
      'FORBIDDEN',
    ]);
    const revoked = await run(['admin'], `mutation { revokePartnerCredential(credentialKey: "${credentialKey}") { status revokedAt } }`);
    expect(revoked.data.revokePartnerCredential.status).toBe('revoked');
    expect(codes(await run(['admin'], `mutation { revokePartnerCredential(credentialKey: "pk_unknown") { status } }`))).toEqual([
      'NOT_FOUND',
    ]);
  });

  it('banks and keys: create (secrets once), webhook endpoint; deliveries listed with filters and re-sent', async () => {
    expect(
      codes(await run(['partner-manager'], `mutation { createBank(code: "BOPS", name: "Bank Ops", tier: "external") { bankCode } }`)),
    ).toEqual(['FORBIDDEN']);
    const bank = await run(
      ['bank-manager'],
      `mutation { createBank(code: "BOPS", name: "Bank Ops", tier: "external") { bankCode tier lookupKeyId lookupSecret eventKeyId eventSecret } }`,
    );
    expect(bank.data.createBank).toEqual({
      bankCode: 'BOPS',
      tier: 'external',
      lookupKeyId: expect.stringMatching(/^lk_/),
      lookupSecret: expect.any(String),
      eventKeyId: expect.stringMatching(/^ek_/),
      eventSecret: expect.any(String),
    });
    expect(codes(await run(['admin'], `mutation { createBank(code: "BOPS", name: "Again", tier: "external") { bankCode } }`))).toEqual([
      'CONFLICT',
    ]);
    expect(codes(await run(['admin'], `mutation { createBank(code: "BX", name: "X", tier: "gold") { bankCode } }`))).toEqual([
      'BAD_USER_INPUT',
    ]);
    const endpoint = await run(
      ['bank-manager'],
      `mutation { setBankWebhookEndpoint(bankCode: "BOPS", url: "http://127.0.0.1:9/hook") { bankCode url webhookSecret } }`,
    );
    expect(endpoint.data.setBankWebhookEndpoint).toEqual({
      bankCode: 'BOPS',
      url: 'http://127.0.0.1:9/hook',
      webhookSecret: expect.any(String),
    });
    const banks = await run(['support'], `{ banks { code tier } }`);
    expect(banks.data.banks).toEqual(expect.arrayContaining([{ code: 'BOPS', tier: 2 }]));

    // A lifecycle change of a merchant its bank sees queues a delivery to the demo bank (which now has an endpoint).
    await run(
      ['bank-manager'],
      `mutation { setBankWebhookEndpoint(bankCode: "${DEMO.bank.code}", url: "http://127.0.0.1:9/demo-hook") { bankCode } }`,
    );
    await run(['admin'], `mutation($input: ChangeMerchantStatusInput!) { changeMerchantStatus(input: $input) { status } }`, {
      input: { merchantId: DEMO.otherMerchants[1].id, targetStatus: 'suspended', reason: 'operator_action' },
    });
    const deliveries = await run(
      ['support'],
      `{ webhookDeliveries(bankCode: "${DEMO.bank.code}", first: 5) { eventId event status merchant { merchantCode } } }`,
    );
    const delivery = deliveries.data.webhookDeliveries.find((d: { event: string }) => d.event === 'merchant.suspended');
    expect(delivery.merchant).toEqual({ merchantCode: DEMO.otherMerchants[1].code });
    expect(codes(await run(['support'], `{ webhookDeliveries(status: "lost") { eventId } }`))).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(await run(['reviewer'], `mutation($id: ID!) { redeliverWebhook(eventId: $id) { status } }`, { id: delivery.eventId })),
    ).toEqual(['FORBIDDEN']);
    const resent = await run(['support'], `mutation($id: ID!) { redeliverWebhook(eventId: $id) { eventId status } }`, {
      id: delivery.eventId,
    });
    expect(resent.data.redeliverWebhook).toEqual({ eventId: delivery.eventId, status: 'pending' });
    expect(
      codes(await run(['support'], `mutation { redeliverWebhook(eventId: "00000000-0000-7000-8000-000000000000") { status } }`)),
    ).toEqual(['NOT_FOUND']);

    // Attempts, a test event (nothing listens on port 9: a network error, recorded), disable and enable.
    const test = await run(['support'], `mutation { sendWebhookTest(bankCode: "BOPS") { eventId delivered statusCode error latencyMs } }`);
    expect(test.data.sendWebhookTest).toMatchObject({ delivered: false, statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
    const attempts = await run(['support'], `query($id: ID!) { webhookAttempts(eventId: $id) { attempt kind statusCode error } }`, {
      id: test.data.sendWebhookTest.eventId,
    });
    expect(attempts.data.webhookAttempts).toEqual([{ attempt: 1, kind: 'test', statusCode: null, error: expect.any(String) }]);
    const toggle = (enabled: boolean) =>
      `mutation { setBankWebhookEndpointEnabled(bankCode: "BOPS", enabled: ${enabled}, reason: "maintenance") { enabled disabledReason resumed } }`;
    expect(codes(await run(['support'], toggle(false)))).toEqual(['FORBIDDEN']);
    expect((await run(['bank-manager'], toggle(false))).data.setBankWebhookEndpointEnabled).toEqual({
      enabled: false,
      disabledReason: 'maintenance',
      resumed: 0,
    });
    expect((await run(['bank-manager'], toggle(true))).data.setBankWebhookEndpointEnabled).toEqual({
      enabled: true,
      disabledReason: null,
      resumed: 0,
    });
  });

  it('refuses a webhook endpoint at an internal address in any spelling and keeps the one set; a test event answers no body', async () => {
    const setEndpoint = (url: string) =>
      run(['bank-manager'], `mutation($url: String!) { setBankWebhookEndpoint(bankCode: "${DEMO.bank.code}", url: $url) { url } }`, {
        url,
      });
    const stored = () =>
      adminQuery(
        stack.database.adminUrl,
        `select e.url, e.secret_sealed from merchant.bank_webhook_endpoints e join merchant.banks b on b.id = e.bank_id where b.code = $1`,
        [DEMO.bank.code],
      );
    expect((await setEndpoint('http://127.0.0.1:9/demo-hook')).data.setBankWebhookEndpoint).toEqual({
      url: 'http://127.0.0.1:9/demo-hook',
    });
    const before = await stored();
    const answers = [];
    for (const url of INTERNAL_URLS) {
      const answer = await setEndpoint(url);
      answers.push([url, codes(answer), answer.errors?.[0].message, answer.data]);
    }
    expect(answers).toEqual(INTERNAL_URLS.map((url) => [url, ['BAD_USER_INPUT'], expect.stringMatching(/^url must /), null]));
    expect(await stored()).toEqual(before);
    expect(codes(await run(['support'], `mutation { sendWebhookTest(bankCode: "${DEMO.bank.code}") { responseExcerpt } }`))).toEqual([
      'GRAPHQL_VALIDATION_FAILED',
    ]);
  });

  it('lists unmatched QRIS payments for reconciliation, with filters and keyset pages (every operator may read)', async () => {
    const url = stack.database.adminUrl;
    for (const [i, reason] of ['amount_mismatch', 'expired', 'amount_mismatch'].entries()) {
      await adminQuery(
        url,
        `insert into "transaction".qris_unmatched_payments (id, payment_event_id, bank_code, nmid, merchant_id, outlet_id, bill_number,
           gross_amount, reason, transaction_at, created_at)
         values ($1, gen_random_uuid(), 'BDEMO', $2, $3, $4, $5, $6, $7, $8, now())`,
        [
          `019b0000-0000-7000-8000-0000000000a${i}`,
          DEMO.outlets[0].nmid,
          DEMO.merchantId,
          DEMO.outlets[0].id,
          `QRRECON00000000${i}`,
          5000 + i,
          reason,
          new Date(Date.parse('2026-11-20T00:00:00Z') + i * 3_600_000),
        ],
      );
    }
    const query = `query($m: ID, $r: String, $from: DateTime, $after: String) {
      qrisUnmatchedPayments(merchantId: $m, reason: $r, from: $from, first: 1, after: $after) {
        items { billNumber grossAmount reason outletId transactionAt } nextCursor } }`;
    const first = await run(['support'], query, { m: DEMO.merchantId, r: 'amount_mismatch' });
    expect(first.data.qrisUnmatchedPayments.items).toEqual([
      {
        billNumber: 'QRRECON000000002',
        grossAmount: 5002,
        reason: 'amount_mismatch',
        outletId: DEMO.outlets[0].id,
        transactionAt: expect.any(String),
      },
    ]);
    const second = await run(['support'], query, {
      m: DEMO.merchantId,
      r: 'amount_mismatch',
      after: first.data.qrisUnmatchedPayments.nextCursor,
    });
    expect(second.data.qrisUnmatchedPayments).toEqual({
      items: [expect.objectContaining({ billNumber: 'QRRECON000000000' })],
      nextCursor: null,
    });
    const late = await run(['support'], query, { m: DEMO.merchantId, from: '2026-11-20T01:00:00Z' });
    expect(late.data.qrisUnmatchedPayments.items[0].billNumber).toBe('QRRECON000000002');
    expect(codes(await run(['support'], query, { r: 'nope' }))).toEqual(['BAD_USER_INPUT']);
  });

  it('app users cannot reach operator operations, operators cannot act as app users', async () => {
    const operator = await operatorHeaders(stack, ['admin']);
    expect(codes(await gql(stack, `{ viewer { user { id } } }`, {}, operator))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(stack, `mutation { grantPartnerConsent(partnerCode: "PDEMO") { partnerCode } }`, {}, operator))).toEqual([
      'FORBIDDEN',
    ]);
  });
});
