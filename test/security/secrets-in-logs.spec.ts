import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hmacHex, signedString } from '@lib/auth/hmac-signature';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { changeMerchantStatus, issuePartnerCredential, listOutbox, setBankWebhook } from '@scripts/database-tasks';
import { freshAddress } from '../support/core-auth';
import { operatorHeaders, postGraphQL } from '../support/graphql';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * Secrets never reach the logs (issue 8): the whole stack runs with its log stream captured while every kind of
 * credential is used — rightly and wrongly — and the captured lines are then searched for every secret value:
 * bank lookup and event secrets (and their signatures), partner secrets (JWT and HMAC mode) and access tokens, the
 * internal API key, OTP codes, user access and refresh tokens, operator tokens, a bank's webhook secret.
 */
describe('secrets absent from the logs of the whole stack', () => {
  let stack: TestStack;
  const secrets = new Map<string, string>();
  const keep = (what: string, value: string | undefined) => {
    expect(value).toBeTruthy();
    secrets.set(what, value!);
  };
  let receiver: ReturnType<typeof createServer>;
  let delivered = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        delivered += 1;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    stack = await startTestStack({ USER_SESSION_CACHE_MS: '0' });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('uses every credential kind, then finds none of their values in any log line', async () => {
    const rest = stack.rest;
    const url = stack.database.adminUrl;

    // Bank lookups and events, signed right and wrong.
    keep('bank lookup secret', DEMO.bank.lookupSecret);
    keep('bank event secret', DEMO.bank.eventSecret);
    const target = `/api/psp/v1/merchants/${DEMO.merchantId}`;
    const timestamp = new Date().toISOString();
    const lookupSignature = hmacHex(DEMO.bank.lookupSecret, signedString('GET', target, timestamp, ''));
    keep('bank lookup signature', lookupSignature);
    expect(
      (
        await rest.inject({
          method: 'GET',
          url: target,
          headers: { 'x-api-key-id': DEMO.bank.lookupKeyId, 'x-timestamp': timestamp, 'x-signature': lookupSignature },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await rest.inject({
          method: 'GET',
          url: target,
          headers: { 'x-api-key-id': DEMO.bank.lookupKeyId, 'x-timestamp': timestamp, 'x-signature': DEMO.bank.lookupSecret },
        })
      ).statusCode,
    ).toBe(401);
    const body = JSON.stringify({
      external_event_id: 'LOG-SCAN-1',
      event_type: 'transaction.success',
      nmid: DEMO.outlets[0].nmid,
      gross_amount: 10_000,
      transaction_code: 'TRX-LOG-SCAN-1',
      transaction_at: timestamp,
    });
    const eventSignature = hmacHex(DEMO.bank.eventSecret, signedString('POST', '/psp/v1/events', timestamp, body));
    keep('bank event signature', eventSignature);
    const eventHeaders = { 'content-type': 'application/json', 'x-psp-key-id': DEMO.bank.eventKeyId, 'x-psp-timestamp': timestamp };
    expect(
      (
        await rest.inject({
          method: 'POST',
          url: '/psp/v1/events',
          payload: body,
          headers: { ...eventHeaders, 'x-psp-signature': eventSignature },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await rest.inject({
          method: 'POST',
          url: '/psp/v1/events',
          payload: body,
          headers: { ...eventHeaders, 'x-psp-signature': DEMO.bank.eventSecret },
        })
      ).statusCode,
    ).toBe(401);

    // Partner: token exchange (right and wrong secret), bearer use, an HMAC-mode credential.
    const demoB = DEMO.partner.credentials.contractB;
    keep('partner secret', demoB.secret);
    const token = await rest.inject({
      method: 'POST',
      url: '/api/partner/v1/auth/token',
      payload: { credential_key: demoB.credentialKey, credential_secret: demoB.secret },
    });
    keep('partner access token', token.json().access_token);
    expect(
      (
        await rest.inject({
          method: 'POST',
          url: '/api/partner/v1/auth/token',
          payload: { credential_key: demoB.credentialKey, credential_secret: `${demoB.secret}x` },
        })
      ).statusCode,
    ).toBe(401);
    const partnerPath = `/api/partner/v1/merchants/${DEMO.merchantId}/scoring-summary?token=${token.json().access_token}`;
    expect(
      (await rest.inject({ method: 'GET', url: partnerPath, headers: { authorization: `Bearer ${token.json().access_token}` } }))
        .statusCode,
    ).toBe(200);
    const hmac = await issuePartnerCredential(stack.config, url, {
      partnerCode: DEMO.partner.code,
      name: 'log scan hmac',
      contract: 'A',
      scopes: ['merchant.read'],
      mode: 'hmac',
    });
    keep('partner HMAC secret', hmac.credential_secret);
    const listPath = `/api/partner/v1/partners/${DEMO.partner.id}/referral-merchants`;
    const partnerTimestamp = new Date().toISOString();
    const partnerSignature = hmacHex(hmac.credential_secret, signedString('GET', listPath, partnerTimestamp, ''));
    expect(
      (
        await rest.inject({
          method: 'GET',
          url: listPath,
          headers: {
            'x-partner-key-id': hmac.credential_key,
            'x-partner-timestamp': partnerTimestamp,
            'x-partner-signature': partnerSignature,
          },
        })
      ).statusCode,
    ).toBe(200);

    // Internal key, right and wrong.
    keep('internal API key', stack.config.secrets.internalApiKey);
    const internal = { 'x-internal-api-key': stack.config.secrets.internalApiKey, 'x-merchant-id': DEMO.merchantId };
    expect((await rest.inject({ method: 'GET', url: '/poslite/catalog/outlets', headers: internal })).statusCode).toBe(200);
    expect(
      (
        await rest.inject({
          method: 'GET',
          url: '/poslite/catalog/outlets',
          headers: { ...internal, 'x-internal-api-key': `${internal['x-internal-api-key']}x` },
        })
      ).statusCode,
    ).toBe(401);

    // A phone login: OTP code (a wrong one first), access and refresh tokens, a refresh.
    const phone = '+6281299887766';
    const address = freshAddress();
    const sent = await rest.inject({
      method: 'POST',
      url: '/auth/request-otp',
      payload: { phone, device_id: 'log-scan-device-0001' },
      remoteAddress: address,
    });
    expect(sent.statusCode).toBe(200);
    const code = ((await listOutbox(stack.config, url, { phone })).find((m) => m.template === 'otp')!.parameters as { code: string }).code;
    keep('OTP code', code);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const verify = (c: string) =>
      rest.inject({
        method: 'POST',
        url: '/auth/verify-otp',
        payload: { request_id: sent.json().request_id, phone, code: c, device_id: 'log-scan-device-0001' },
        remoteAddress: address,
      });
    expect((await verify(wrong)).statusCode).toBe(400);
    const session = (await verify(code)).json();
    keep('user access token', session.access_token);
    keep('user refresh token', session.refresh_token);
    keep('trusted device id', 'log-scan-device-0001');
    expect(
      (await rest.inject({ method: 'GET', url: '/auth/profile', headers: { authorization: `Bearer ${session.access_token}` } })).statusCode,
    ).toBe(200);
    const refreshed = await rest.inject({ method: 'POST', url: '/auth/refresh', payload: { refresh_token: session.refresh_token } });
    keep('rotated refresh token', refreshed.json().refresh_token);

    // An operator at the gateway.
    const operator = await operatorHeaders(stack, ['admin']);
    keep('operator token', operator.authorization.slice('Bearer '.length));
    expect((await postGraphQL(stack, { query: '{ partners { code } }' }, operator)).status).toBe(200);

    // A bank webhook: endpoint secret issued, a lifecycle event signed with it and delivered.
    const endpoint = await setBankWebhook(stack.config, url, {
      bankCode: DEMO.bank.code,
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    });
    keep('webhook secret', endpoint.webhook_secret);
    await changeMerchantStatus(stack.config, url, { merchantId: DEMO.merchantId, targetStatus: 'suspended', reason: 'violation' });
    // The merchant process's job worker delivers it (its log lines are the stack's too).
    const deadline = Date.now() + 10_000;
    while (delivered === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(delivered).toBeGreaterThan(0);
    const sendTest = await postGraphQL(
      stack,
      { query: `mutation { sendWebhookTest(bankCode: "${DEMO.bank.code}") { delivered } }` },
      operator,
    );
    expect(sendTest.data.sendWebhookTest.delivered).toBe(true);

    const logs = stack.logs.map((line) => JSON.stringify(line));
    // The servers that saw the credentials logged their requests.
    const services = new Set(stack.logs.map((line) => line.service));
    expect(['rest', 'gateway'].filter((service) => !services.has(service))).toEqual([]);
    expect(logs.length).toBeGreaterThan(30);
    const leaks = [...secrets].flatMap(([what, value]) => {
      // A six-digit code could appear inside a number (a response time): only standalone occurrences count.
      const pattern = /^[0-9]{6}$/.test(value) ? new RegExp(`(?<![0-9.])${value}(?![0-9])`) : null;
      const hits = logs.filter((line) => (pattern ? pattern.test(line) : line.includes(value)));
      return hits.length ? [{ what, example: hits[0].slice(0, 300) }] : [];
    });
    expect(leaks).toEqual([]);
  });
});
