import type { Client as PgClient } from 'pg';
import { request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { hmacHex, signedString } from '@lib/auth/hmac-signature';
import { signUserAccessToken } from '@lib/auth/user-token';
import type { loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';

/**
 * Requests as the demo data's clients send them (bench/mixed.ts, bench/scale.ts): the demo bank's signed lookups and
 * posts (psp-api.md §5), and bearer tokens of the demo partner's two credentials and of the demo owner.
 */
export const jakartaNow = () => new Date(Date.now() + 7 * 3_600_000).toISOString().replace('Z', '+07:00');

export function bankLookup(path: string) {
  const timestamp = new Date().toISOString();
  const headers = {
    'x-api-key-id': DEMO.bank.lookupKeyId,
    'x-timestamp': timestamp,
    'x-signature': hmacHex(DEMO.bank.lookupSecret, signedString('GET', path, timestamp, '')),
  };
  return { method: 'GET' as const, path, headers };
}

export function bankPost(path: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const timestamp = jakartaNow();
  const headers = {
    'content-type': 'application/json',
    'x-psp-key-id': DEMO.bank.eventKeyId,
    'x-psp-timestamp': timestamp,
    'x-psp-signature': hmacHex(DEMO.bank.eventSecret, signedString('POST', path, timestamp, body)),
  };
  return { method: 'POST' as const, path, headers, body };
}

/** Tokens of the demo partner's contract A and B credentials (its token endpoint) and of the demo owner (a session written as the merchant subgraph writes one: a login per run would hit the OTP caps). */
export async function demoTokens(
  rest: string,
  pg: PgClient,
  config: ReturnType<typeof loadConfig>,
): Promise<{ partnerA: string; partnerB: string; user: string }> {
  const sessionId = uuidv7();
  await pg.query(
    `insert into merchant.user_sessions (id, user_id, platform_code, auth_method, created_at, expires_at) values ($1, $2, 'mobile_app', 'otp', now(), now() + interval '1 day')`,
    [sessionId, DEMO.owner.userId],
  );
  const partnerToken = async (c: { credentialKey: string; secret: string }) => {
    const res = await request(`${rest}/api/partner/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credential_key: c.credentialKey, credential_secret: c.secret }),
    });
    return ((await res.body.json()) as { access_token: string }).access_token;
  };
  return {
    partnerA: await partnerToken(DEMO.partner.credentials.contractA),
    partnerB: await partnerToken(DEMO.partner.credentials.contractB),
    user: (await signUserAccessToken({ userId: DEMO.owner.userId, sessionId }, config.secrets.userTokenSecret)).token,
  };
}
