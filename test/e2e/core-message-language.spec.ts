import { randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { postDemoBankEvent } from '../support/bank-events';
import { freshAddress } from '../support/core-auth';
import { type HttpRecorder, type RecordedRequest, startMessageProviders } from '../support/http-recorder';
import { type PosActor, posMember } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const A = DEMO.merchantId;
const [PUSAT] = DEMO.outlets;

/**
 * Every message the platform sends a person is in that person's `app_language` (issue 48 §2,
 * docs/decisions/0046-notifications.md), through real local messaging, push and email providers.
 * The daily summary's texts in both languages: core-daily-summary.spec.ts.
 */
describe('Messages in the user’s language (issue 48 §2)', () => {
  let stack: TestStack;
  let messaging: HttpRecorder;
  let push: HttpRecorder;
  let email: HttpRecorder;
  const sql = <T extends object = Record<string, any>>(text: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, text, params);
  const bearer = (actor: PosActor) => ({ authorization: `Bearer ${actor.token}` });
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    stack.rest.inject({ method: 'POST', url, payload, headers, remoteAddress: freshAddress() });

  beforeAll(async () => {
    const providers = await startMessageProviders();
    ({ messaging, push, email } = providers);
    stack = await startTestStack(
      {
        ...providers.env,
        USER_SESSION_CACHE_MS: '0',
      },
      { own: true },
    );
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([messaging, push, email].map((r) => r?.stop()));
  });

  /** A member of `merchantId` whose phone is known, with a push token on one device and the language given. */
  const member = async (language: 'id' | 'en' | null, role: 'owner' | 'staff' = 'owner', outletIds: string[] = []) => {
    const actor = await posMember(stack, A, role, outletIds);
    const token = `push-lang-${randomUUID()}`;
    const deviceId = `device-${randomUUID()}`;
    expect((await post('/auth/push-tokens', { push_token: token, device_id: deviceId }, bearer(actor))).statusCode).toBe(200);
    if (language) {
      const saved = await stack.rest.inject({
        method: 'PUT',
        url: '/auth/account-settings',
        headers: bearer(actor),
        payload: { app_language: language },
      });
      expect(saved.statusCode).toBe(200);
    }
    const [{ user_id, phone }] = await sql<{ user_id: string; phone: string }>(
      `select t.user_id, u.phone from merchant.push_tokens t join merchant.users u on u.id = t.user_id where t.token = $1`,
      [token],
    );
    return { actor, token, userId: user_id, phone };
  };
  const until = async (done: () => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };
  const messagesTo = (phone: string) => messaging.requests.filter((r) => r.json?.to === phone.replace(/^\+/, ''));
  const pushesTo = (token: string, type: string): RecordedRequest[] =>
    push.requests.filter((r) => r.json?.message?.token === token && r.json?.message?.data?.type === type);
  const codeIn = (request: RecordedRequest) =>
    request.json.template.components[0].parameters.find((p: { parameter_name: string }) => p.parameter_name === 'code').text as string;

  it('OTP by messaging: the template in the language of the phone’s user, Indonesian before the first login', async () => {
    const newPhone = `+62812${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const english = await member('en');
    const indonesian = await member('id');
    for (const phone of [newPhone, english.phone, indonesian.phone])
      expect((await post('/auth/request-otp', { phone, device_id: `device-${randomUUID()}` })).statusCode).toBe(200);
    const languageOf = (phone: string) => messagesTo(phone).map((r) => [r.json.template.name, r.json.template.language.code]);
    expect(languageOf(newPhone)).toEqual([['otp', 'id']]);
    expect(languageOf(english.phone)).toEqual([['otp', 'en']]);
    expect(languageOf(indonesian.phone)).toEqual([['otp', 'id']]);
    const recorded = await sql<{ phone: string; language: string }>(
      `select phone, language from merchant.notification_messages where template = 'otp' and phone = any($1) order by phone`,
      [[newPhone, english.phone, indonesian.phone]],
    );
    expect(Object.fromEntries(recorded.map((r) => [r.phone, r.language]))).toEqual({
      [newPhone]: 'id',
      [english.phone]: 'en',
      [indonesian.phone]: 'id',
    });
    // The internal OTP endpoint too.
    const internal = await post(
      '/internal/notifications/messaging/otp',
      { phone: english.phone, code: '482913' },
      { 'x-internal-api-key': stack.config.secrets.internalApiKey },
    );
    expect(internal.statusCode).toBe(200);
    expect(messagesTo(english.phone).at(-1)!.json.template.language).toEqual({ code: 'en' });
  });

  it('login alert: pushed to the other devices in the user’s language', async () => {
    const english = await member('en');
    const indonesian = await member(null);
    for (const user of [english, indonesian]) {
      const deviceId = `device-${randomUUID()}`;
      const requested = await post('/auth/request-otp', { phone: user.phone, device_id: deviceId });
      expect(requested.statusCode).toBe(200);
      const verified = await post('/auth/verify-otp', {
        request_id: requested.json().request_id,
        phone: user.phone,
        code: codeIn(messagesTo(user.phone).at(-1)!),
        device_id: deviceId,
        device_name: 'Pixel 8',
      });
      expect(verified.statusCode).toBe(200);
    }
    await until(() => [english, indonesian].every((u) => pushesTo(u.token, 'login_alert').length > 0));
    expect(pushesTo(english.token, 'login_alert').map((r) => r.json.message.notification)).toEqual([
      { title: 'New login to your account', body: 'Your account was just signed in on Pixel 8. Not you? Cancel this login.' },
    ]);
    expect(pushesTo(indonesian.token, 'login_alert').map((r) => r.json.message.notification)).toEqual([
      { title: 'Login baru di akun Anda', body: 'Akun Anda baru saja masuk di Pixel 8. Bukan Anda? Batalkan login ini.' },
    ]);
  });

  it('payment push: "Payment received Rp25.000" / "Pembayaran diterima Rp25.000" by each member’s language', async () => {
    const english = await member('en');
    const indonesian = await member('id', 'staff', [PUSAT.id]);
    const id = `evt-lang-${randomUUID()}`;
    const res = await postDemoBankEvent(stack, { external_event_id: id, transaction_code: `TRX-${id}`, gross_amount: 25_000 });
    expect(res.statusCode).toBe(200);
    await until(() => [english, indonesian].every((u) => pushesTo(u.token, 'payment_received').length > 0));
    expect(pushesTo(english.token, 'payment_received').map((r) => r.json.message.notification)).toEqual([
      { title: 'Warung Kopi Demo', body: 'Payment received Rp25.000' },
    ]);
    expect(pushesTo(indonesian.token, 'payment_received').map((r) => r.json.message.notification)).toEqual([
      { title: 'Warung Kopi Demo', body: 'Pembayaran diterima Rp25.000' },
    ]);
  });

  it('email verification: subject and text in the user’s language', async () => {
    const english = await member('en');
    const indonesian = await member('id');
    const sent: Record<string, RecordedRequest> = {};
    for (const [name, user] of [
      ['en', english],
      ['id', indonesian],
    ] as const) {
      const address = `${name}-${randomUUID().slice(0, 8)}@example.com`;
      const res = await post('/auth/profile/email/request-otp', { email: address }, bearer(user.actor));
      expect(res.statusCode).toBe(200);
      sent[name] = email.requests.find((r) => r.json?.to === address)!;
    }
    const code = (r: RecordedRequest) => r.json.parameters.code as string;
    expect(sent.en.json).toEqual({
      to: expect.any(String),
      template: 'email_otp',
      language: 'en',
      subject: 'Email verification code',
      text: `Your email verification code: ${code(sent.en)}. Ignore this email if you did not ask for it.`,
      parameters: { code: code(sent.en) },
    });
    expect(sent.id.json).toMatchObject({
      language: 'id',
      subject: 'Kode verifikasi email',
      text: `Kode verifikasi email Anda: ${code(sent.id)}. Abaikan email ini jika Anda tidak memintanya.`,
    });
  });
});
