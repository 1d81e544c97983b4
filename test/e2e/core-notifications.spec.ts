import { createHmac } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { listOutbox } from '@scripts/database-tasks';
import { sessionFor } from '../support/core-auth';
import { HttpRecorder } from '../support/http-recorder';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const WEBHOOK_SECRET = 'test-messaging-webhook-secret-0123';
const VERIFY_TOKEN = 'test-verify-token';

/** Providers are real local HTTP servers (DESIGN.md §8): a WhatsApp-like messaging API and an FCM-like push API. */
describe('Core notifications: providers, internal endpoints, push tokens, messaging webhook', () => {
  let stack: TestStack;
  let messaging: HttpRecorder;
  let push: HttpRecorder;
  let messageSeq = 0;
  const deadTokens = new Set<string>();
  const internal = { 'x-internal-api-key': '' };

  const createUser = async (phone: string) => {
    const id = uuidv7();
    await adminQuery(
      stack.database.adminUrl,
      'insert into merchant.users (id, phone, created_at, updated_at) values ($1, $2, now(), now())',
      [id, phone],
    );
    return id;
  };
  const bearerOf = (userId: string) => sessionFor(stack, userId);
  const sign = (body: string, secret = WEBHOOK_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const messages = (phone: string) =>
    adminQuery<Record<string, any>>(
      stack.database.adminUrl,
      'select * from merchant.notification_messages where phone = $1 order by created_at, id',
      [phone],
    );

  beforeAll(async () => {
    messaging = await new HttpRecorder(() => ({
      status: 200,
      body: { messaging_product: 'whatsapp', messages: [{ id: `wamid.${++messageSeq}` }] },
    })).start();
    push = await new HttpRecorder(({ json }) => {
      const token = json?.message?.token;
      if (deadTokens.has(token))
        return { status: 404, body: { error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } } };
      if (token === 'flaky-token') return { status: 503, body: { error: { status: 'UNAVAILABLE' } } };
      return { status: 200, body: { name: `projects/demo/messages/${uuidv7()}` } };
    }).start();
    stack = await startTestStack({
      MESSAGING_PROVIDER_URL: `${messaging.url}/v1/messages`,
      MESSAGING_PROVIDER_TOKEN: 'messaging-token',
      PUSH_PROVIDER_URL: `${push.url}/v1/send`,
      PUSH_PROVIDER_TOKEN: 'push-token',
      MESSAGING_WEBHOOK_SECRET: WEBHOOK_SECRET,
      MESSAGING_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
    });
    internal['x-internal-api-key'] = stack.config.secrets.internalApiKey;
  });
  afterAll(async () => {
    await stack?.close();
    await messaging?.stop();
    await push?.stop();
  });

  describe('POST /internal/notifications/messaging/otp', () => {
    it('sends the `otp` template WhatsApp-style and records it with the provider id, code redacted', async () => {
      const res = await stack.rest.inject({
        method: 'POST',
        url: '/internal/notifications/messaging/otp',
        headers: internal,
        payload: { phone: '0812 3400 0001', code: '482913' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'queued' });
      const sent = messaging.requests.at(-1)!;
      expect(sent.headers.authorization).toBe('Bearer messaging-token');
      expect(sent.json).toEqual({
        messaging_product: 'whatsapp',
        to: '6281234000001',
        type: 'template',
        template: {
          name: 'otp',
          language: { code: 'id' },
          components: [{ type: 'body', parameters: [{ type: 'text', parameter_name: 'code', text: '482913' }] }],
        },
      });
      const [row] = await messages('+6281234000001');
      expect(row).toMatchObject({
        channel: 'messaging',
        provider: 'messaging-http',
        recipient: '+6281234000001',
        template: 'otp',
        status: 'accepted',
        parameters: { code: '[redacted]' },
      });
      expect(row.provider_message_id).toMatch(/^wamid\.\d+$/);
      expect(JSON.stringify(await listOutbox(stack.config, stack.database.adminUrl, { phone: '+6281234000001' }))).not.toContain('482913');
    });

    it.each([
      ['a wrong key', { 'x-internal-api-key': 'wrong' }, { phone: '081234000001', code: '123456' }, 401, 'unauthorized'],
      ['no key', {}, { phone: '081234000001', code: '123456' }, 401, 'unauthorized'],
      ['a foreign phone', null, { phone: '+14155550100', code: '123456' }, 400, 'bad_request'],
      ['a code with letters', null, { phone: '081234000001', code: '12ab56' }, 400, 'bad_request'],
      ['no code', null, { phone: '081234000001' }, 400, 'bad_request'],
    ])('refuses %s', async (_name, headers, payload, status, code) => {
      const before = messaging.requests.length;
      const res = await stack.rest.inject({
        method: 'POST',
        url: '/internal/notifications/messaging/otp',
        headers: headers ?? internal,
        payload,
      });
      expect(res.statusCode).toBe(status);
      const body = res.json();
      // The schema's 400s (a code with letters, no code) name the field in details.
      expect(body).toEqual({
        error: expect.any(String),
        code,
        ...(body.details ? { details: [expect.objectContaining({ pointer: '/code' })] } : {}),
      });
      expect(messaging.requests.length).toBe(before);
    });

    it('answers 503 messaging_unavailable when the provider refuses, and records the failure', async () => {
      const previous = messaging.respond;
      messaging.respond = () => ({ status: 500, body: { error: { message: 'down' } } });
      try {
        const res = await stack.rest.inject({
          method: 'POST',
          url: '/internal/notifications/messaging/otp',
          headers: internal,
          payload: { phone: '081234000002', code: '111222' },
        });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'messaging_unavailable', retry_after_secs: 30 });
        expect(res.headers['retry-after']).toBe('30');
        expect(await messages('+6281234000002')).toEqual([
          expect.objectContaining({ status: 'failed', provider_message_id: null, error: 'provider answered 500' }),
        ]);

        // a login code that cannot be delivered is discarded: 503, and no cooldown for the retry
        const login = () => stack.rest.inject({ method: 'POST', url: '/auth/request-otp', payload: { phone: '081234000003' } });
        const failed = await login();
        expect(failed.statusCode).toBe(503);
        expect(failed.json()).toEqual({ error: expect.any(String), code: 'otp_delivery_failed', retry_after_secs: 30 });
        expect(await adminQuery(stack.database.adminUrl, "select 1 from merchant.otp_challenges where subject = '+6281234000003'")).toEqual(
          [],
        );
        messaging.respond = previous;
        const retried = await login();
        expect(retried.statusCode).toBe(200);
        expect(retried.json().status).toBe('otp_sent');
      } finally {
        messaging.respond = previous;
      }
    });
  });

  describe('push tokens and POST /internal/notifications/push/test', () => {
    it('sends to every live token of the phone, invalidates UNREGISTERED ones and counts failures apart', async () => {
      const phone = '+6281234000010';
      const userId = await createUser(phone);
      const auth = await bearerOf(userId);
      for (const [device, token] of [
        ['device-aaaaaaaaaaaaaaaa', 'token-a'],
        ['device-bbbbbbbbbbbbbbbb', 'token-dead'],
        ['device-cccccccccccccccc', 'flaky-token'],
      ]) {
        const res = await stack.rest.inject({
          method: 'POST',
          url: '/auth/push-tokens',
          headers: auth,
          payload: { push_token: token, device_id: device, device_name: 'Pixel' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ status: 'registered' });
      }
      deadTokens.add('token-dead');
      const payload = {
        phone: '081234000010',
        title: 'Halo',
        body: 'Tes',
        type: 'registration_status',
        screen: 'home',
        reference_id: 'R1',
        merchant_id: 'M1',
      };
      const first = await stack.rest.inject({ method: 'POST', url: '/internal/notifications/push/test', headers: internal, payload });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ status: 'queued', phone, sent_count: 1, failed_count: 1, invalidated_count: 1 });
      const toA = push.requests.find((r) => r.json?.message?.token === 'token-a')!;
      expect(toA.headers.authorization).toBe('Bearer push-token');
      expect(toA.json).toEqual({
        message: {
          token: 'token-a',
          notification: { title: 'Halo', body: 'Tes' },
          data: { type: 'registration_status', screen: 'home', reference_id: 'R1', merchant_id: 'M1' },
        },
      });
      const tokens = await adminQuery<{ token: string; invalidated_at: Date | null }>(
        stack.database.adminUrl,
        'select token, invalidated_at from merchant.push_tokens where user_id = $1 order by token',
        [userId],
      );
      expect(tokens.map((t) => [t.token, t.invalidated_at !== null])).toEqual([
        ['flaky-token', false],
        ['token-a', false],
        ['token-dead', true],
      ]);
      // the dead token is not tried again
      const second = await stack.rest.inject({ method: 'POST', url: '/internal/notifications/push/test', headers: internal, payload });
      expect(second.json()).toMatchObject({ sent_count: 1, failed_count: 1, invalidated_count: 0 });
      expect(push.requests.filter((r) => r.json?.message?.token === 'token-dead')).toHaveLength(1);
      expect((await messages(phone)).map((m) => m.status).sort()).toEqual(['accepted', 'accepted', 'failed', 'failed', 'invalid_token']);

      // registering the dead token again (e.g. after reinstall, on a new device) revives it there
      const again = await stack.rest.inject({
        method: 'POST',
        url: '/auth/push-tokens',
        headers: auth,
        payload: { push_token: 'token-dead', device_id: 'device-dddddddddddddddd' },
      });
      expect(again.statusCode).toBe(200);
      const moved = await adminQuery<{ token: string; invalidated_at: Date | null }>(
        stack.database.adminUrl,
        'select token, invalidated_at from merchant.push_tokens where user_id = $1 and token = $2',
        [userId, 'token-dead'],
      );
      expect(moved).toEqual([{ token: 'token-dead', invalidated_at: null }]);
    });

    it('answers sent_count 0 for a phone without user or tokens, and refuses bad input', async () => {
      const none = await stack.rest.inject({
        method: 'POST',
        url: '/internal/notifications/push/test',
        headers: internal,
        payload: { phone: '081234009999', title: 'a', body: 'b' },
      });
      expect(none.json()).toEqual({ status: 'queued', phone: '+6281234009999', sent_count: 0, failed_count: 0, invalidated_count: 0 });
      for (const payload of [
        { phone: '081234009999', title: 'a' },
        { phone: '081234009999', title: '', body: 'b' },
        { phone: '+4915112345678', title: 'a', body: 'b' },
      ]) {
        const res = await stack.rest.inject({ method: 'POST', url: '/internal/notifications/push/test', headers: internal, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('bad_request');
      }
      const wrongKey = await stack.rest.inject({
        method: 'POST',
        url: '/internal/notifications/push/test',
        headers: { 'x-internal-api-key': 'nope' },
        payload: { phone: '081234009999', title: 'a', body: 'b' },
      });
      expect(wrongKey.statusCode).toBe(401);
    });

    it('refuses push-token registration without a valid bearer, or with a short device id', async () => {
      const unauth = await stack.rest.inject({
        method: 'POST',
        url: '/auth/push-tokens',
        payload: { push_token: 't', device_id: 'device-eeeeeeeeeeeeeeee' },
      });
      expect(unauth.statusCode).toBe(401);
      expect(unauth.json()).toEqual({ error: expect.any(String), code: 'unauthorized' });
      const auth = await bearerOf(await createUser('+6281234000011'));
      const short = await stack.rest.inject({
        method: 'POST',
        url: '/auth/push-tokens',
        headers: auth,
        payload: { push_token: 't', device_id: 'short' },
      });
      expect(short.statusCode).toBe(400);
    });
  });

  describe('messaging webhook', () => {
    it('answers the subscription check with the raw challenge only for the right token', async () => {
      const ok = await stack.rest.inject({
        method: 'GET',
        url: `/webhooks/messaging/status?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toMatch(/^text\/plain/);
      expect(ok.body).toBe('1158201444');
      for (const query of [
        `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
        `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
        `hub.mode=subscribe&hub.challenge=1`,
      ]) {
        const res = await stack.rest.inject({ method: 'GET', url: `/webhooks/messaging/status?${query}` });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'forbidden' });
      }
    });

    it('applies signed delivery statuses forward only, ignores unknown ids, refuses bad signatures', async () => {
      const phone = '+6281234000020';
      await stack.rest.inject({
        method: 'POST',
        url: '/internal/notifications/messaging/otp',
        headers: internal,
        payload: { phone, code: '555000' },
      });
      const [sent] = await messages(phone);
      const callback = (status: string, id = sent.provider_message_id, timestamp = '1790000000') =>
        JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: 'WABA',
              changes: [
                {
                  field: 'messages',
                  value: { messaging_product: 'whatsapp', statuses: [{ id, status, timestamp, recipient_id: '6281234000020' }] },
                },
              ],
            },
          ],
        });
      const post = (body: string, signature?: string) =>
        stack.rest.inject({
          method: 'POST',
          url: '/webhooks/messaging/status',
          headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
          payload: body,
        });

      const delivered = callback('delivered');
      expect((await post(delivered, sign(delivered))).json()).toEqual({ status: 'ok', updated: 1 });
      expect((await messages(phone))[0]).toMatchObject({ status: 'delivered' });
      expect(new Date((await messages(phone))[0].status_at).getTime()).toBe(1790000000 * 1000);
      const late = callback('sent');
      expect((await post(late, sign(late))).json()).toEqual({ status: 'ok', updated: 0 });
      const unknown = callback('read', 'wamid.unknown');
      expect((await post(unknown, sign(unknown))).json()).toEqual({ status: 'ok', updated: 0 });
      expect((await messages(phone))[0]).toMatchObject({ status: 'delivered' });

      const read = callback('read');
      for (const signature of [
        undefined,
        sign(read, 'another-secret-0123456789'),
        'sha256=zz',
        sign(read).toUpperCase().replace('SHA256', 'sha1'),
      ]) {
        const res = await post(read, signature);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'unauthorized' });
      }
      // the signature covers the raw bytes: re-serialised JSON with the same meaning does not pass
      expect((await post(JSON.stringify(JSON.parse(read), null, 1), sign(read))).statusCode).toBe(401);
      expect((await messages(phone))[0]).toMatchObject({ status: 'delivered' });
      expect((await post(read, sign(read))).json()).toEqual({ status: 'ok', updated: 1 });
      expect((await messages(phone))[0]).toMatchObject({ status: 'read' });
    });
  });
});
