import { decodeJwt } from 'jose';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { listOutbox } from '@scripts/database-tasks';
import { freshAddress } from '../support/core-auth';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const DEVICE_A = 'device-a-0123456789abcdef';
const DEVICE_B = 'device-b-0123456789abcdef';

interface Session {
  status: string;
  phone: string;
  verified: boolean;
  token_type: string;
  access_token: string;
  refresh_token: string;
  expires_in_secs: number;
}

/**
 * Phone login over the whole stack with the log providers (development defaults): codes are read where an
 * operator reads them (`dev:outbox`). The session cache is off so that revocations show at once.
 */
describe('Core auth: phone login, OTP rules, device trust, sessions, settings, email', () => {
  let stack: TestStack;
  let phoneSeq = 0;
  const newPhone = () => `+62812550${String(++phoneSeq).padStart(5, '0')}`;

  const post = (url: string, payload: object, options: { address?: string; headers?: Record<string, string> } = {}) =>
    stack.rest.inject({ method: 'POST', url, payload, headers: options.headers, remoteAddress: options.address ?? freshAddress() });
  const bearer = (s: Session) => ({ authorization: `Bearer ${s.access_token}` });
  const db = <T extends object = Record<string, any>>(sql: string, params: unknown[] = []) =>
    adminQuery<T>(stack.database.adminUrl, sql, params);

  /** The newest code the log provider "sent" to the phone, as `npm run ops -- dev:outbox --phone P` shows it. */
  const latestCode = async (phone: string, template = 'otp') => {
    const outbox = await listOutbox(stack.config, stack.database.adminUrl, { phone });
    const entry = outbox.find((m) => m.template === template);
    expect(entry).toBeDefined();
    return (entry!.parameters as { code: string }).code;
  };
  const requestOtp = async (phone: string, extra: object = {}, address?: string) => {
    const res = await post('/auth/request-otp', { phone, ...extra }, { address });
    expect(res.statusCode).toBe(200);
    return res.json<{ request_id: string; phone: string }>();
  };
  const login = async (phone: string, deviceId = DEVICE_A, deviceName = 'Pixel 8') => {
    const { request_id } = await requestOtp(phone, { device_id: deviceId });
    const res = await post('/auth/verify-otp', {
      request_id,
      phone,
      code: await latestCode(phone),
      device_id: deviceId,
      device_name: deviceName,
    });
    expect(res.statusCode).toBe(200);
    return res.json<Session>();
  };
  /** The login_alert pushes recorded for the phone, once `count` are (they are jobs queued by verify-otp). */
  const loginAlerts = async (phone: string, count = 1) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const alerts = (await listOutbox(stack.config, stack.database.adminUrl, { phone })).filter((m) => m.template === 'login_alert');
      if (alerts.length >= count || Date.now() > deadline) return alerts;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const backdate = (phone: string, secs: number) =>
    db(
      `update merchant.otp_challenges set created_at = created_at - make_interval(secs => $2), expires_at = expires_at - make_interval(secs => $2) where subject = $1`,
      [phone, secs],
    );

  beforeAll(async () => {
    stack = await startTestStack({ USER_SESSION_CACHE_MS: '0', OTP_MAX_PER_ADDRESS_PER_HOUR: '3' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('runs the whole login: resolve (new user) → request → verify → trusted device authenticated next time', async () => {
    const phone = newPhone();
    const local = `0${phone.slice(3)}`;
    const resolved = await post('/auth/resolve-phone', { phone: local, platform_code: 'android', device_id: DEVICE_A });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toEqual({ status: 'verification_required', phone, reason: 'new_user', verification_channel: 'messaging' });
    expect(await db('select 1 from merchant.users where phone = $1', [phone])).toEqual([]);

    const sent = await post('/auth/request-otp', {
      phone: phone.slice(1),
      method: 'messaging',
      platform_code: 'android',
      device_id: DEVICE_A,
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({
      status: 'otp_sent',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      phone,
      method: 'messaging',
      expires_in_secs: 300,
      retry_after_secs: 60,
    });
    const code = await latestCode(phone);
    expect(code).toMatch(/^[0-9]{6}$/);
    const [challenge] = await db('select * from merchant.otp_challenges where subject = $1', [phone]);
    expect(JSON.stringify(challenge)).not.toContain(code);
    expect(challenge.code_hash).toMatch(/^[0-9a-f]{64}$/);

    const verified = await post('/auth/verify-otp', {
      request_id: sent.json().request_id,
      phone,
      code,
      platform_code: 'android',
      device_id: DEVICE_A,
      device_name: 'Pixel 8',
    });
    expect(verified.statusCode).toBe(200);
    const session = verified.json<Session>();
    expect(session).toEqual({
      status: 'verified',
      phone,
      verified: true,
      token_type: 'Bearer',
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^rt_[A-Za-z0-9_-]{43}$/),
      expires_in_secs: 3600,
    });
    const [user] = await db('select * from merchant.users where phone = $1', [phone]);
    expect(user.phone_verified_at).not.toBeNull();
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({ sub: user.id, iss: 'qris-auth', aud: 'qris-app' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    const [stored] = await db('select * from merchant.user_sessions where id = $1', [claims.sid]);
    expect(stored).toMatchObject({
      user_id: user.id,
      auth_method: 'otp',
      revoked_at: null,
      platform_code: 'android',
      device_name: 'Pixel 8',
    });
    expect(JSON.stringify(await db('select * from merchant.refresh_tokens where session_id = $1', [claims.sid]))).not.toContain(
      session.refresh_token,
    );
    expect(JSON.stringify(await db('select * from merchant.trusted_devices where user_id = $1', [user.id]))).not.toContain(DEVICE_A);

    // the bearer works on an authenticated route
    expect((await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(session) })).statusCode).toBe(200);

    const again = await post('/auth/resolve-phone', { phone: `+${phone.slice(1)}`, device_id: DEVICE_A });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      ...session,
      status: 'authenticated',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    expect(decodeJwt(again.json().access_token).sid).not.toBe(claims.sid);
    const [trusted] = await db('select * from merchant.user_sessions where id = $1', [decodeJwt(again.json().access_token).sid]);
    expect(trusted.auth_method).toBe('trusted_device');

    for (const device of [{ device_id: DEVICE_B }, {}]) {
      const other = await post('/auth/resolve-phone', { phone, ...device });
      expect(other.json()).toEqual({ status: 'verification_required', phone, reason: 'new_device', verification_channel: 'messaging' });
    }
  });

  it('lets the demo owner of the demo merchant log in (npm start prints how)', async () => {
    const resolved = await post('/auth/resolve-phone', { phone: DEMO.owner.phone, device_id: DEVICE_A });
    expect(resolved.json()).toMatchObject({ status: 'verification_required', reason: 'new_device' });
    const s = await login(DEMO.owner.phone);
    expect(decodeJwt(s.access_token).sub).toBe(DEMO.owner.userId);
    expect(
      await db('select role from merchant.merchant_users where user_id = $1 and merchant_id = $2', [DEMO.owner.userId, DEMO.merchantId]),
    ).toEqual([{ role: 'owner' }]);
  });

  it.each([
    ['/auth/resolve-phone', { phone: '+14155550100' }],
    ['/auth/resolve-phone', { phone: 'call me' }],
    ['/auth/request-otp', { phone: '+6591234567' }],
    ['/auth/request-otp', { phone: '0812' }],
    ['/auth/request-otp', { phone: '081255099999', method: 'carrier_pigeon' }],
    ['/auth/request-otp', { phone: '081255099999', device_id: 'short' }],
    ['/auth/verify-otp', { request_id: '019a0000-0000-7000-8000-000000000000', phone: '+14155550100', code: '123456' }],
    ['/auth/verify-otp', { request_id: 'not-a-uuid', phone: '081255099999', code: '123456' }],
    ['/auth/verify-otp', { request_id: '019a0000-0000-7000-8000-000000000000', phone: '081255099999', code: '12345' }],
  ])('%s refuses %j with 400 bad_request and stores nothing', async (url, payload) => {
    const res = await post(url, payload);
    expect(res.statusCode).toBe(400);
    // The schema's 400s name the field in details, as do the service's phone checks that know it.
    const body = res.json();
    expect(body).toEqual({
      error: expect.any(String),
      code: 'bad_request',
      ...(body.details
        ? {
            details: [
              expect.objectContaining({
                pointer: expect.stringMatching(new RegExp(`^/(${Object.keys(payload).join('|')})$`)),
                rule: expect.any(String),
              }),
            ],
          }
        : {}),
    });
    expect(await db(`select 1 from merchant.otp_challenges where subject in ('+14155550100', '+6281255099999')`)).toEqual([]);
  });

  describe('OTP rules', () => {
    it('cooldown: a second code within 60 s is 429 otp_cooldown with retry_after_secs and Retry-After', async () => {
      const phone = newPhone();
      await requestOtp(phone);
      const res = await post('/auth/request-otp', { phone });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'otp_cooldown', retry_after_secs: expect.any(Number) });
      expect(res.json().retry_after_secs).toBeGreaterThanOrEqual(59);
      expect(res.json().retry_after_secs).toBeLessThanOrEqual(60);
      expect(res.headers['retry-after']).toBe(String(res.json().retry_after_secs));
      expect(await db('select count(*)::int as n from merchant.otp_challenges where subject = $1', [phone])).toEqual([{ n: 1 }]);
    });

    it('a new code invalidates the old one (otp_expired); the new one works once (single use)', async () => {
      const phone = newPhone();
      const first = await requestOtp(phone);
      const firstCode = await latestCode(phone);
      await backdate(phone, 61);
      const second = await requestOtp(phone);
      const secondCode = await latestCode(phone);
      const old = await post('/auth/verify-otp', { request_id: first.request_id, phone, code: firstCode });
      expect(old.statusCode).toBe(400);
      expect(old.json()).toEqual({ error: expect.any(String), code: 'otp_expired' });
      const ok = await post('/auth/verify-otp', { request_id: second.request_id, phone, code: secondCode });
      expect(ok.statusCode).toBe(200);
      const replay = await post('/auth/verify-otp', { request_id: second.request_id, phone, code: secondCode });
      expect(replay.statusCode).toBe(400);
      expect(replay.json().code).toBe('otp_expired');
      expect(
        await db('select count(*)::int as n from merchant.user_sessions s join merchant.users u on u.id = s.user_id where u.phone = $1', [
          phone,
        ]),
      ).toEqual([{ n: 1 }]);
    });

    it('expiry: a code past its 300 s is otp_expired, even when right', async () => {
      const phone = newPhone();
      const { request_id } = await requestOtp(phone);
      await db(`update merchant.otp_challenges set expires_at = now() - interval '1 second' where id = $1`, [request_id]);
      const res = await post('/auth/verify-otp', { request_id, phone, code: await latestCode(phone) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'otp_expired' });
    });

    it('an unknown request id, or another phone’s, is invalid_otp (no probing)', async () => {
      const phone = newPhone();
      const other = newPhone();
      const { request_id } = await requestOtp(phone);
      const code = await latestCode(phone);
      for (const payload of [
        { request_id: '019a0000-0000-7000-8000-000000000000', phone, code },
        { request_id, phone: other, code },
      ]) {
        const res = await post('/auth/verify-otp', payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: 'the code is not valid', code: 'invalid_otp' });
      }
      expect((await post('/auth/verify-otp', { request_id, phone, code })).statusCode).toBe(200);
    });

    it('brute force: four wrong tries are invalid_otp, the fifth kills the code (otp_attempts_exceeded), the right one then fails', async () => {
      const phone = newPhone();
      const { request_id } = await requestOtp(phone);
      const code = await latestCode(phone);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let left = 4; left >= 1; left -= 1) {
        const res = await post('/auth/verify-otp', { request_id, phone, code: wrong });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: `the code is not valid (${left} tries left)`, code: 'invalid_otp' });
      }
      const fifth = await post('/auth/verify-otp', { request_id, phone, code: wrong });
      expect(fifth.statusCode).toBe(429);
      expect(fifth.json()).toEqual({ error: expect.any(String), code: 'otp_attempts_exceeded' });
      const right = await post('/auth/verify-otp', { request_id, phone, code });
      expect(right.statusCode).toBe(429);
      expect(right.json().code).toBe('otp_attempts_exceeded');
      expect(await db('select 1 from merchant.users where phone = $1', [phone])).toEqual([]);
    });

    it('brute force, concurrently: 25 simultaneous wrong guesses are counted atomically, never more than 5 evaluated', async () => {
      const phone = newPhone();
      const { request_id } = await requestOtp(phone);
      const code = await latestCode(phone);
      const guesses = Array.from({ length: 25 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      const answers = await Promise.all(guesses.map((guess) => post('/auth/verify-otp', { request_id, phone, code: guess })));
      const codes = answers.map((a) => a.json().code);
      expect(codes.filter((c) => c === 'invalid_otp')).toHaveLength(4);
      expect(codes.filter((c) => c === 'otp_attempts_exceeded')).toHaveLength(21);
      expect(await db('select attempts from merchant.otp_challenges where id = $1', [request_id])).toEqual([{ attempts: 5 }]);
      expect((await post('/auth/verify-otp', { request_id, phone, code })).json().code).toBe('otp_attempts_exceeded');
    });

    it('caps: 5 codes per phone per hour, then 429 otp_rate_limited with retry_after_secs', async () => {
      const phone = newPhone();
      for (let i = 0; i < 5; i += 1) {
        await requestOtp(phone);
        await backdate(phone, 61);
      }
      const res = await post('/auth/request-otp', { phone });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'otp_rate_limited', retry_after_secs: expect.any(Number) });
      // the oldest of the five was sent 5 × 61 s ago: the window reopens 3600 − 305 s from now
      expect(res.json().retry_after_secs).toBeGreaterThan(3290);
      expect(res.json().retry_after_secs).toBeLessThanOrEqual(3295);
      expect(res.headers['retry-after']).toBe(String(res.json().retry_after_secs));
    });

    it('caps: codes per client address per hour (3 in this stack), whatever the phone', async () => {
      const address = freshAddress();
      for (let i = 0; i < 3; i += 1) await requestOtp(newPhone(), {}, address);
      const res = await post('/auth/request-otp', { phone: newPhone() }, { address });
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('otp_rate_limited');
      expect((await post('/auth/request-otp', { phone: newPhone() })).statusCode).toBe(200);
    });

    it('limits the unauthenticated auth routes per client address (rate_limit_exceeded)', async () => {
      const address = freshAddress();
      const answers = [];
      for (let i = 0; i < 31; i += 1) answers.push(await post('/auth/resolve-phone', { phone: '081255000000' }, { address }));
      expect(answers.slice(0, 30).map((a) => a.statusCode)).toEqual(Array(30).fill(200));
      expect(answers[30].statusCode).toBe(429);
      expect(answers[30].json()).toEqual({ error: expect.any(String), code: 'rate_limit_exceeded', retry_after_secs: expect.any(Number) });
    });
  });

  describe('sessions', () => {
    it('rotates refresh tokens; a reused one revokes the whole session (RFC 9700)', async () => {
      const phone = newPhone();
      const first = await login(phone);
      const refreshed = await post('/auth/refresh', { refresh_token: first.refresh_token });
      expect(refreshed.statusCode).toBe(200);
      const second = refreshed.json<Session>();
      expect(second).toEqual({ ...first, status: 'authenticated', access_token: expect.any(String), refresh_token: expect.any(String) });
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(decodeJwt(second.access_token).sid).toBe(decodeJwt(first.access_token).sid);
      const third = (await post('/auth/refresh', { refresh_token: second.refresh_token })).json() as Session;
      expect((await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(third) })).statusCode).toBe(200);

      const reused = await post('/auth/refresh', { refresh_token: first.refresh_token });
      expect(reused.statusCode).toBe(401);
      expect(reused.json()).toEqual({ error: expect.any(String), code: 'refresh_token_reused' });
      // the family is dead: the newest refresh token and every access token of the session
      const newest = await post('/auth/refresh', { refresh_token: third.refresh_token });
      expect(newest.statusCode).toBe(401);
      expect(newest.json().code).toBe('invalid_refresh_token');
      for (const s of [first, second, third]) {
        const res = await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(s) });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: 'session ended; log in again', code: 'unauthorized' });
      }
      const [session] = await db('select revoke_reason from merchant.user_sessions where id = $1', [decodeJwt(first.access_token).sid]);
      expect(session.revoke_reason).toBe('refresh_token_reuse');
    });

    it('refuses unknown and malformed refresh tokens and expired ones', async () => {
      for (const refresh_token of ['rt_unknown', 'x'.repeat(200)]) {
        const res = await post('/auth/refresh', { refresh_token });
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('invalid_refresh_token');
      }
      expect((await post('/auth/refresh', {})).statusCode).toBe(400);
      const s = await login(newPhone());
      await db(`update merchant.refresh_tokens set expires_at = now() - interval '1 second' where session_id = $1`, [
        decodeJwt(s.access_token).sid,
      ]);
      expect((await post('/auth/refresh', { refresh_token: s.refresh_token })).json().code).toBe('invalid_refresh_token');
    });

    it('logout ends the session: its access and refresh tokens stop working', async () => {
      const s = await login(newPhone());
      const out = await stack.rest.inject({ method: 'POST', url: '/auth/logout', headers: bearer(s) });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ status: 'logged_out' });
      expect((await stack.rest.inject({ method: 'POST', url: '/auth/logout', headers: bearer(s) })).statusCode).toBe(401);
      expect((await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(s) })).statusCode).toBe(401);
      expect((await post('/auth/refresh', { refresh_token: s.refresh_token })).json().code).toBe('invalid_refresh_token');
    });

    it.each([
      ['no Authorization', {}],
      ['a malformed one', { authorization: 'Bearer nope' }],
      ['a forged token', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4Iiwic2lkIjoieSJ9.c2lnbmF0dXJl' }],
    ])('answers 401 unauthorized to %s on bearer routes', async (_name, headers) => {
      for (const [method, url] of [
        ['GET', '/auth/account-settings'],
        ['POST', '/auth/logout'],
        ['POST', '/auth/profile/email/request-otp'],
      ] as const) {
        const res = await stack.rest.inject({ method, url, headers, payload: method === 'POST' ? {} : undefined });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'unauthorized' });
      }
    });
  });

  describe('login_alert and device-login cancel', () => {
    it('alerts the other devices with push tokens, and the link revokes that login and untrusts its device', async () => {
      const phone = newPhone();
      const onA = await login(phone, DEVICE_A, 'Pixel 8');
      const registered = await stack.rest.inject({
        method: 'POST',
        url: '/auth/push-tokens',
        headers: bearer(onA),
        payload: { push_token: `fcm-${phone}-a`, device_id: DEVICE_A },
      });
      expect(registered.statusCode).toBe(200);
      // logging in again on A alerts nobody (A is the device logging in)
      await backdate(phone, 61);
      await login(phone, DEVICE_A, 'Pixel 8');
      expect(
        await adminQuery(stack.database.adminUrl, `select 1 from graphile_worker.jobs where task_identifier = 'notification.push'`),
      ).toEqual([]);
      expect((await listOutbox(stack.config, stack.database.adminUrl, { phone })).filter((m) => m.template === 'login_alert')).toEqual([]);

      await backdate(phone, 61);
      const onB = await login(phone, DEVICE_B, 'Galaxy S24');
      const alerts = await loginAlerts(phone);
      expect(alerts).toEqual([
        {
          channel: 'push',
          recipient: `fcm-${phone}-a`,
          template: 'login_alert',
          parameters: {
            title: expect.any(String),
            body: expect.stringContaining('Galaxy S24'),
            data: {
              type: 'login_alert',
              cancel_token: expect.stringMatching(/^dl_[A-Za-z0-9_-]{43}$/),
              device_name: 'Galaxy S24',
              platform_code: 'mobile_app',
            },
          },
          status: 'logged',
          time: expect.any(String),
        },
      ]);
      const token = (alerts[0].parameters as { data: { cancel_token: string } }).data.cancel_token;
      expect(JSON.stringify(await db('select * from merchant.login_cancellations'))).not.toContain(token);

      const cancel = await stack.rest.inject({ method: 'GET', url: `/auth/device-login/cancel?token=${token}` });
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json()).toEqual({ status: 'cancelled', message: expect.any(String) });
      expect((await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(onB) })).statusCode).toBe(401);
      expect((await post('/auth/refresh', { refresh_token: onB.refresh_token })).json().code).toBe('invalid_refresh_token');
      expect((await post('/auth/resolve-phone', { phone, device_id: DEVICE_B })).json()).toMatchObject({
        status: 'verification_required',
        reason: 'new_device',
      });
      // device A is untouched
      expect((await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(onA) })).statusCode).toBe(200);
      expect((await post('/auth/resolve-phone', { phone, device_id: DEVICE_A })).json().status).toBe('authenticated');

      for (const bad of [token, 'dl_unknownunknownunknownunknownunknownunknownxx', 'garbage']) {
        const res = await stack.rest.inject({ method: 'GET', url: `/auth/device-login/cancel?token=${bad}` });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'invalid_cancel_token' });
      }
      expect((await stack.rest.inject({ method: 'GET', url: '/auth/device-login/cancel' })).statusCode).toBe(400);
    });

    it('refuses an expired link', async () => {
      const phone = newPhone();
      const onA = await login(phone, DEVICE_A);
      await stack.rest.inject({
        method: 'POST',
        url: '/auth/push-tokens',
        headers: bearer(onA),
        payload: { push_token: `fcm-${phone}-a`, device_id: DEVICE_A },
      });
      await backdate(phone, 61);
      await login(phone, DEVICE_B);
      const [alert] = await loginAlerts(phone);
      await db(`update merchant.login_cancellations set expires_at = now() - interval '1 second'`);
      const res = await stack.rest.inject({
        method: 'GET',
        url: `/auth/device-login/cancel?token=${(alert.parameters as any).data.cancel_token}`,
      });
      expect(res.json().code).toBe('invalid_cancel_token');
    });
  });

  describe('account settings', () => {
    it('answers the documented defaults until saved, then merges partial updates', async () => {
      const s = await login(newPhone());
      const userId = decodeJwt(s.access_token).sub;
      const defaults = await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(s) });
      expect(defaults.json()).toEqual({
        user_id: userId,
        notification_push_enabled: true,
        notification_transactions_enabled: true,
        notification_promotions_enabled: true,
        notification_daily_summary_enabled: true,
        app_language: 'id',
        privacy_analytics_enabled: true,
        privacy_data_sharing_enabled: false,
        updated_at: null,
      });
      const put = await stack.rest.inject({
        method: 'PUT',
        url: '/auth/account-settings',
        headers: bearer(s),
        payload: { notification_promotions_enabled: false, app_language: 'en' },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual({
        ...defaults.json(),
        notification_promotions_enabled: false,
        app_language: 'en',
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const put2 = await stack.rest.inject({
        method: 'PUT',
        url: '/auth/account-settings',
        headers: bearer(s),
        payload: { privacy_data_sharing_enabled: true },
      });
      expect(put2.json()).toMatchObject({ notification_promotions_enabled: false, app_language: 'en', privacy_data_sharing_enabled: true });
      expect((await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(s) })).json()).toEqual(put2.json());
    });

    it.each([[{}], [{ app_language: 'fr' }], [{ notification_push_enabled: 'yes' }]])('refuses %j with 400', async (payload) => {
      const s = await login(newPhone());
      const res = await stack.rest.inject({ method: 'PUT', url: '/auth/account-settings', headers: bearer(s), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('bad_request');
      expect((await stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers: bearer(s) })).json().updated_at).toBeNull();
    });
  });

  describe('email verification', () => {
    it('sends a code to the email and verifies it into the profile', async () => {
      const phone = newPhone();
      const s = await login(phone);
      const sent = await stack.rest.inject({
        method: 'POST',
        url: '/auth/profile/email/request-otp',
        headers: bearer(s),
        payload: { email: ' Owner@Example.COM ' },
      });
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({ status: 'otp_sent', email: 'owner@example.com', expires_in_secs: 300 });
      const again = await stack.rest.inject({
        method: 'POST',
        url: '/auth/profile/email/request-otp',
        headers: bearer(s),
        payload: { email: 'owner@example.com' },
      });
      expect(again.json().code).toBe('otp_cooldown');
      const code = await latestCode(phone, 'email_otp');
      const wrongEmail = await stack.rest.inject({
        method: 'POST',
        url: '/auth/profile/email/verify-otp',
        headers: bearer(s),
        payload: { email: 'other@example.com', code },
      });
      expect(wrongEmail.statusCode).toBe(400);
      expect(wrongEmail.json()).toEqual({ error: 'the code is not valid (4 tries left)', code: 'invalid_otp' });
      const wrong = await stack.rest.inject({
        method: 'POST',
        url: '/auth/profile/email/verify-otp',
        headers: bearer(s),
        payload: { email: 'owner@example.com', code: code === '000000' ? '111111' : '000000' },
      });
      expect(wrong.json().code).toBe('invalid_otp');
      const ok = await stack.rest.inject({
        method: 'POST',
        url: '/auth/profile/email/verify-otp',
        headers: bearer(s),
        payload: { email: 'owner@example.com', code },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({
        status: 'verified',
        profile: { user_id: decodeJwt(s.access_token).sub, email: 'owner@example.com', email_verified: true },
      });
      const [user] = await db('select email, email_verified_at from merchant.users where phone = $1', [phone]);
      expect(user.email).toBe('owner@example.com');
      expect(user.email_verified_at).not.toBeNull();
      expect(
        (
          await stack.rest.inject({
            method: 'POST',
            url: '/auth/profile/email/request-otp',
            headers: bearer(s),
            payload: { email: 'not-an-email' },
          })
        ).statusCode,
      ).toBe(400);
    });
  });

  it('never writes a code, an access token, a refresh token or a cancel link into the logs', async () => {
    const phone = newPhone();
    const s = await login(phone);
    const codes = (await listOutbox(stack.config, stack.database.adminUrl, {})).flatMap(
      (m) => JSON.stringify(m.parameters).match(/"(?:code|cancel_token)":"([^"]+)"/g) ?? [],
    );
    await stack.rest.inject({
      method: 'GET',
      url: `/auth/device-login/cancel?token=dl_secretsecretsecretsecretsecretsecretsecrets`,
      headers: bearer(s),
    });
    const logs = JSON.stringify(stack.logs);
    expect(codes.length).toBeGreaterThan(5);
    // A code as a number of its own: six digits also occur inside timings (responseTime 116.9210350…).
    for (const value of codes.map((c) => c.split(':')[1].replaceAll('"', '')))
      expect(logs).not.toMatch(new RegExp(`(?<![0-9.])${value}(?![0-9])`));
    expect(logs).not.toContain(s.access_token);
    expect(logs).not.toContain(s.refresh_token);
    expect(logs).not.toContain('dl_secretsecret');
  });
});
