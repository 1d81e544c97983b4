import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { loadConfig } from '@lib/config/config';
import { listOutbox } from '@scripts/database-tasks';
import { freshAddress } from '../support/core-auth';
import { HttpRecorder } from '../support/http-recorder';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/** jose 6 keys are WebCrypto CryptoKeys. */
type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'qris-merchant-app';
const URL_PATH = '/external-phone-verify';

/** An identity provider played by a real local HTTP server serving the JWKS of a key this test generates. */
describe('Core auth: external-phone-verify (ID token against a JWKS)', () => {
  let stack: TestStack;
  let idp: HttpRecorder;
  let key: SigningKey;
  let otherKey: SigningKey;
  const extraApps: FastifyInstance[] = [];

  const idToken = (
    claims: Record<string, unknown> = {},
    options: { key?: SigningKey; kid?: string; alg?: string; expiresIn?: string | number; audience?: string; issuer?: string } = {},
  ) => {
    const jwt = new SignJWT({ phone_number: '+6281277700001', ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? 'idp-key-1' })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setSubject('idp-user-1')
      .setIssuedAt();
    if (options.expiresIn !== undefined) jwt.setExpirationTime(options.expiresIn);
    else jwt.setExpirationTime('5m');
    return jwt.sign(options.key ?? key);
  };
  const verify = (payload: object, app: FastifyInstance = stack.rest) =>
    app.inject({ method: 'POST', url: `/auth${URL_PATH}`, payload, remoteAddress: freshAddress() });
  const restWith = async (env: Record<string, string>) => {
    const app = await stack.startRestApp(
      loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: stack.database.adminUrl, ...env }),
    );
    await app.ready();
    extraApps.push(app);
    return app;
  };

  beforeAll(async () => {
    const signing = await generateKeyPair('RS256');
    key = signing.privateKey;
    ({ privateKey: otherKey } = await generateKeyPair('RS256'));
    const { publicKey: unrelatedKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(signing.publicKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
    const unrelated = { ...(await exportJWK(unrelatedKey)), kid: 'idp-key-0', alg: 'RS256', use: 'sig' };
    idp = await new HttpRecorder(({ url }) =>
      url === '/jwks' ? { status: 200, body: { keys: [unrelated, jwk] } } : { status: 500, body: { error: 'down' } },
    ).start();
    // Settings of REST only: a REST app of its own on the file's stack.
    stack = await startTestStack(
      { EXTERNAL_VERIFIER_JWKS_URL: `${idp.url}/jwks`, EXTERNAL_VERIFIER_ISSUER: ISSUER, EXTERNAL_VERIFIER_AUDIENCE: AUDIENCE },
      { onlyIn: 'rest' },
    );
  });
  afterAll(async () => {
    for (const app of extraApps) await app.close();
    await stack?.close();
    await idp?.stop();
  });

  it('opens a verified session for the token’s phone, creates the user, trusts the device, keeps the audit, sends no login_alert', async () => {
    const res = await verify({
      id_token: await idToken(),
      request_id: 'req-1',
      platform_code: 'ios',
      device_id: 'device-ext-0123456789abcdef',
      device_name: 'iPhone',
      flow_mode: 'login_fallback',
      fallback_reason: 'messaging_unavailable',
      hint_phone: '081277700001',
    });
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session).toEqual({
      status: 'verified',
      phone: '+6281277700001',
      verified: true,
      token_type: 'Bearer',
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^rt_/),
      expires_in_secs: 3600,
    });
    const [user] = await adminQuery<{ id: string }>(stack.database.adminUrl, 'select id from merchant.users where phone = $1', [
      '+6281277700001',
    ]);
    expect(decodeJwt(session.access_token).sub).toBe(user.id);
    const [audit] = await adminQuery(stack.database.adminUrl, 'select * from merchant.external_verifications where user_id = $1', [
      user.id,
    ]);
    expect(audit).toMatchObject({
      issuer: ISSUER,
      subject: 'idp-user-1',
      request_id: 'req-1',
      flow_mode: 'login_fallback',
      fallback_reason: 'messaging_unavailable',
      hint_phone: '081277700001',
      platform_code: 'ios',
      session_id: decodeJwt(session.access_token).sid,
    });
    const trusted = await stack.rest.inject({
      method: 'POST',
      url: '/auth/resolve-phone',
      payload: { phone: '081277700001', device_id: 'device-ext-0123456789abcdef' },
      remoteAddress: freshAddress(),
    });
    expect(trusted.json().status).toBe('authenticated');

    // another device of the user has a push token: still no login_alert on this path
    await stack.rest.inject({
      method: 'POST',
      url: '/auth/push-tokens',
      headers: { authorization: `Bearer ${session.access_token}` },
      payload: { push_token: 'fcm-ext', device_id: 'device-ext-0123456789abcdef' },
    });
    const second = await verify({ id_token: await idToken(), device_id: 'device-ext-other-0123456789' });
    expect(second.statusCode).toBe(200);
    expect(
      (await listOutbox(stack.config, stack.database.adminUrl, { phone: '+6281277700001' })).filter((m) => m.template === 'login_alert'),
    ).toEqual([]);
    expect(
      await adminQuery(stack.database.adminUrl, 'select count(*)::int as n from merchant.users where phone = $1', ['+6281277700001']),
    ).toEqual([{ n: 1 }]);
  });

  it.each([['081277700002'], ['6281277700002']])('normalises a phone claim written %s', async (phone) => {
    const res = await verify({ id_token: await idToken({ phone_number: phone }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().phone).toBe('+6281277700002');
  });

  it.each([
    ['a signature by another key', () => idToken({}, { key: otherKey })],
    ['an expired token', () => idToken({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
    ['a wrong audience', () => idToken({}, { audience: 'someone-else' })],
    ['a wrong issuer', () => idToken({}, { issuer: 'https://evil.example' })],
    ['an unknown key id', () => idToken({}, { kid: 'idp-key-9', key: otherKey })],
    [
      'an HS256 token',
      () =>
        new SignJWT({ phone_number: '+6281277700003' })
          .setProtectedHeader({ alg: 'HS256', kid: 'idp-key-1' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('x'.repeat(32))),
    ],
    ['a token without a phone', () => idToken({ phone_number: undefined })],
    ['a malformed token', async () => 'not.a.jwt'],
    ['garbage', async () => 'garbage'],
  ])('refuses %s with 401 invalid_external_token and creates nobody', async (_name, token) => {
    const res = await verify({ id_token: await token() });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'invalid_external_token' });
    expect(await adminQuery(stack.database.adminUrl, `select 1 from merchant.users where phone = '+6281277700003'`)).toEqual([]);
  });

  it('refuses a token without exp (401)', async () => {
    const token = await new SignJWT({ phone_number: '+6281277700003' })
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .sign(key);
    expect((await verify({ id_token: token })).json().code).toBe('invalid_external_token');
  });

  it.each([['+14155550100'], ['+6591234567'], ['12345']])(
    'refuses the non-Indonesian phone %s with 400 unsupported_phone_region',
    async (phone) => {
      const res = await verify({ id_token: await idToken({ phone_number: phone }) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'unsupported_phone_region' });
    },
  );

  it.each([
    ['an empty id_token', { id_token: '' }],
    ['no id_token', {}],
    ['an unknown flow_mode', { id_token: 'x', flow_mode: 'sideways' }],
    ['an unknown fallback_reason', { id_token: 'x', fallback_reason: 'bored' }],
    ['a short device_id', { id_token: 'x', device_id: 'abc' }],
  ])('answers 400 bad_request for %s', async (_name, payload) => {
    const res = await verify(payload);
    expect(res.statusCode).toBe(400);
    // The one refused field: the other than id_token when there is one, else id_token (empty or missing).
    const field = Object.keys(payload).find((key) => key !== 'id_token') ?? 'id_token';
    expect(res.json()).toEqual({
      error: expect.any(String),
      code: 'bad_request',
      details: [expect.objectContaining({ pointer: `/${field}` })],
    });
  });

  it('answers 400 bad_request for a body that is not JSON', async () => {
    const res = await stack.rest.inject({
      method: 'POST',
      url: `/auth${URL_PATH}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"id_token": ',
      remoteAddress: freshAddress(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bad_request');
  });

  it('answers 502 external_verifier_unreachable when the JWKS cannot be fetched or read', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const base = { EXTERNAL_VERIFIER_ISSUER: ISSUER, EXTERNAL_VERIFIER_AUDIENCE: AUDIENCE, EXTERNAL_VERIFIER_TIMEOUT_MS: '500' };
    for (const jwksUrl of [`http://127.0.0.1:${closedPort}/jwks`, `${idp.url}/broken-jwks`]) {
      const app = await restWith({ ...base, EXTERNAL_VERIFIER_JWKS_URL: jwksUrl });
      const res = await verify({ id_token: await idToken() }, app);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'external_verifier_unreachable' });
    }
  });

  it('answers 503 external_verifier_not_configured without JWKS URL, issuer or audience', async () => {
    const partial: Record<string, string>[] = [
      { EXTERNAL_VERIFIER_ISSUER: ISSUER, EXTERNAL_VERIFIER_AUDIENCE: AUDIENCE },
      { EXTERNAL_VERIFIER_JWKS_URL: `${idp.url}/jwks`, EXTERNAL_VERIFIER_AUDIENCE: AUDIENCE },
    ];
    for (const env of partial) {
      const app = await restWith(env);
      const res = await verify({ id_token: await idToken() }, app);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'external_verifier_not_configured' });
    }
  });

  it('fetches the key set once and serves later tokens from jose’s cache', async () => {
    const before = idp.requests.filter((r) => r.url === '/jwks').length;
    for (let i = 0; i < 3; i += 1) expect((await verify({ id_token: await idToken() })).statusCode).toBe(200);
    expect(idp.requests.filter((r) => r.url === '/jwks').length).toBe(before);
    expect(before).toBeGreaterThanOrEqual(1);
  });

  it('never logs the ID token', async () => {
    const token = await idToken({ phone_number: '+6281277700009' });
    await verify({ id_token: token });
    expect(JSON.stringify(stack.logs)).not.toContain(token.split('.')[2]);
  });
});
