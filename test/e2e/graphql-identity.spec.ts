import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { issueServiceToken } from '@lib/auth/service-token';
import { signUserAccessToken } from '@lib/auth/user-token';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createGatewayApp } from '@gateway/src/app';
import { loadConfig } from '@lib/config/config';
import { sessionFor } from '../support/core-auth';
import { codes, gql, memberHeaders, operatorHeaders } from '../support/graphql';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';
import { PRODUCTION_ENV } from '../support/production-env';

/** jose 6 keys are WebCrypto CryptoKeys. */
type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** Who calls the gateway: app users, operators (shared key and JWKS), anonymous callers; bad tokens are 401. */
describe('GraphQL identity at the gateway', () => {
  let stack: TestStack;
  let jwks: Server;
  let jwksUrl: string;
  let privateKey: SigningKey;
  const ISSUER = 'qris-operator';
  const AUDIENCE = 'qris-gateway';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    // Settings of the gateway only: a gateway of its own on the file's stack.
    stack = await startTestStack({ OPERATOR_JWKS_URL: jwksUrl, USER_SESSION_CACHE_MS: '0' }, { onlyIn: 'gateway' });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  const idp = (claims: Record<string, unknown>, options: { issuer?: string; audience?: string; exp?: string; kid?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'k1' })
      .setSubject('op-123')
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? '5m')
      .sign(privateKey);

  it('anonymous callers reach public reference data only', async () => {
    const provinces = await gql(stack, '{ provinces { id name } }');
    expect(provinces.status).toBe(200);
    expect(provinces.data.provinces.length).toBeGreaterThan(0);
    const merchant = await gql(stack, `{ merchantSearch(query: "DEMO") { items { id } } }`);
    expect(codes(merchant)).toEqual(['UNAUTHENTICATED']);
    const viewer = await gql(stack, '{ viewer { user { id } } }');
    expect(codes(viewer)).toEqual(['UNAUTHENTICATED']);
  });

  it('an app user is the user of the token, with the merchant, role and outlets of its membership', async () => {
    const owner = await sessionFor(stack, DEMO.owner.userId);
    const answer = await gql(
      stack,
      '{ viewer { user { id phone } membership { role outletIds } merchant { id merchantCode } } myMerchant { id } }',
      {},
      owner,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.viewer).toEqual({
      user: { id: DEMO.owner.userId, phone: DEMO.owner.phone },
      membership: { role: 'owner', outletIds: [] },
      merchant: { id: DEMO.merchantId, merchantCode: DEMO.merchantCode },
    });
    expect(answer.data.myMerchant).toEqual({ id: DEMO.merchantId });
  });

  it('a user without a membership sees no merchant data', async () => {
    const stranger = await memberHeaders(stack, DEMO.merchantId, 'viewer');
    await adminQuery(stack.database.adminUrl, `update merchant.merchant_users set revoked_at = now() where id = $1`, [stranger.memberId]);
    // A fresh session: the gateway keeps a membership for 30 s per session.
    const headers = await sessionFor(stack, stranger.userId);
    const answer = await gql(stack, '{ viewer { membership { role } merchant { id } } myMerchant { id } }', {}, headers);
    expect(answer.data).toEqual({ viewer: { membership: null, merchant: null }, myMerchant: null });
    const outlets = await gql(stack, `{ posOutlets { id } }`, {}, headers);
    expect(codes(outlets)).toEqual(['FORBIDDEN']);
  });

  it('expired, forged, ended-session and malformed tokens are 401 UNAUTHENTICATED', async () => {
    const owner = await sessionFor(stack, DEMO.owner.userId);
    const sid = JSON.parse(Buffer.from(owner.authorization.split('.')[1], 'base64url').toString()).sid as string;
    const expired = await signUserAccessToken(
      { userId: DEMO.owner.userId, sessionId: sid },
      stack.config.secrets.userTokenSecret,
      Date.now() - 2 * 3600_000,
    );
    const forged = await signUserAccessToken({ userId: DEMO.owner.userId, sessionId: sid }, 'another-secret-of-at-least-32-characters!');
    for (const authorization of [
      `Bearer ${expired.token}`,
      `Bearer ${forged.token}`,
      'Bearer not-a-jwt',
      'Basic abc',
      `Bearer ${await idp({ roles: ['admin'] }, { exp: '-1m' })}`,
    ]) {
      const answer = await gql(stack, '{ provinces { id } }', {}, { authorization });
      expect({ authorization: authorization.slice(0, 20), status: answer.status, codes: codes(answer) }).toEqual({
        authorization: authorization.slice(0, 20),
        status: 401,
        codes: ['UNAUTHENTICATED'],
      });
    }
    await adminQuery(
      stack.database.adminUrl,
      `update merchant.user_sessions set revoked_at = now(), revoke_reason = 'test' where id = $1`,
      [sid],
    );
    const ended = await gql(stack, '{ viewer { user { id } } }', {}, owner);
    expect([ended.status, codes(ended)]).toEqual([401, ['UNAUTHENTICATED']]);
  });

  it('an operator token signed with the shared key carries its roles', async () => {
    const headers = await operatorHeaders(stack, ['support']);
    const answer = await gql(stack, `{ merchantSearch(query: "${DEMO.merchantCode}") { items { id merchantCode } } }`, {}, headers);
    expect(answer.data.merchantSearch.items).toEqual([{ id: DEMO.merchantId, merchantCode: DEMO.merchantCode }]);
    const write = await gql(stack, `mutation { createPartner(code: "PX1", name: "X", referralCode: "PX1REF") { partnerId } }`, {}, headers);
    expect(codes(write)).toEqual(['FORBIDDEN']);
  });

  it('an operator token of the identity provider (JWKS, RS256) is accepted; wrong issuer, audience or key are 401', async () => {
    const good = await gql(
      stack,
      `{ banks { code } }`,
      {},
      { authorization: `Bearer ${await idp({ roles: ['bank-manager'], name: 'Ops' })}` },
    );
    expect(good.data.banks.map((b: { code: string }) => b.code)).toContain(DEMO.bank.code);
    const other = await generateKeyPair('RS256');
    const wrongKey = await new SignJWT({ roles: ['admin'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('x')
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .sign(other.privateKey);
    for (const token of [await idp({ roles: ['admin'] }, { audience: 'someone-else' }), wrongKey, await idp({ roles: 'admin' })]) {
      const answer = await gql(stack, `{ banks { code } }`, {}, { authorization: `Bearer ${token}` });
      expect([answer.status, codes(answer)]).toEqual([401, ['UNAUTHENTICATED']]);
    }
    // A token of another issuer is not an operator token: it is then checked as a service token, and fails.
    const foreign = await gql(
      stack,
      `{ banks { code } }`,
      {},
      { authorization: `Bearer ${await idp({ roles: ['admin'] }, { issuer: 'elsewhere' })}` },
    );
    expect([foreign.status, codes(foreign)]).toEqual([401, ['UNAUTHENTICATED']]);
  });

  it('introspection and the landing page are off in production', async () => {
    const production = loadConfig({ ...process.env, ...PRODUCTION_ENV });
    expect(production.operatorTokens.secret).toBeUndefined();
    expect(production.gatewayLimits.trustedDocumentsOnly).toBe(true);
    const gateway = await createGatewayApp({
      config: production,
      subgraphs: { transport: 'http', urls: stack.subgraphUrls() },
      warmUp: false,
    });
    try {
      const introspection = await gateway.inject({
        method: 'POST',
        url: '/graphql',
        payload: { query: '{ __schema { types { name } } }' },
      });
      expect(introspection.json().errors[0].extensions.code).toBe('TRUSTED_DOCUMENT_REQUIRED');
      const landing = await gateway.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
      expect(landing.body).not.toMatch(/<html/i);
      // Services (and operators) may send free-form operations in production, but introspection stays off.
      const asService = await gateway.inject({
        method: 'POST',
        url: '/graphql',
        payload: { query: '{ __schema { types { name } } }' },
        headers: { authorization: `Bearer ${await issueServiceToken('test', production.secrets.serviceTokenSecret)}` },
      });
      expect(asService.json().errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(asService.json().errors[0].message).toMatch(/introspection/i);
    } finally {
      await gateway.close();
    }
  });
});
