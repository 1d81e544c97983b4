import { decodeJwt } from 'jose';
import { listOutbox } from '@scripts/database-tasks';
import { freshAddress } from '../support/core-auth';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/** userAuth trusts a session's liveness for USER_SESSION_CACHE_MS (here 1 s; at most 30 s in production). */
describe('Core auth: session liveness cache of the REST process', () => {
  let stack: TestStack;
  const phone = '+6281266600001';

  const login = async () => {
    const sent = await stack.rest.inject({ method: 'POST', url: '/auth/request-otp', payload: { phone }, remoteAddress: freshAddress() });
    await adminQuery(
      stack.database.adminUrl,
      `update merchant.otp_challenges set created_at = created_at - interval '61 seconds' where subject = $1`,
      [phone],
    );
    const [entry] = await listOutbox(stack.config, stack.database.adminUrl, { phone });
    const res = await stack.rest.inject({
      method: 'POST',
      url: '/auth/verify-otp',
      payload: { request_id: sent.json().request_id, phone, code: (entry.parameters as { code: string }).code },
      remoteAddress: freshAddress(),
    });
    return { authorization: `Bearer ${res.json().access_token as string}` };
  };
  const settings = (headers: Record<string, string>) => stack.rest.inject({ method: 'GET', url: '/auth/account-settings', headers });

  beforeAll(async () => {
    // Without Redis, as `npm test` runs: with it, a revocation elsewhere reaches this process at once (decision 0010).
    stack = await startTestStack({ USER_SESSION_CACHE_MS: '1000', REDIS_URL: '' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a logout in this process takes effect at once', async () => {
    const auth = await login();
    expect((await settings(auth)).statusCode).toBe(200);
    expect((await stack.rest.inject({ method: 'POST', url: '/auth/logout', headers: auth })).statusCode).toBe(200);
    expect((await settings(auth)).statusCode).toBe(401);
  });

  it('a revocation elsewhere takes effect within the cache time', async () => {
    const auth = await login();
    expect((await settings(auth)).statusCode).toBe(200);
    const sid = decodeJwt(auth.authorization.slice(7)).sid as string;
    await adminQuery(
      stack.database.adminUrl,
      `update merchant.user_sessions set revoked_at = now(), revoke_reason = 'test' where id = $1`,
      [sid],
    );
    expect((await settings(auth)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await settings(auth)).statusCode).toBe(401);
  });
});
