import type { Client as PgClient } from 'pg';
import { request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { hmacHex, signedString } from '@lib/auth/hmac-signature';
import { signUserAccessToken } from '@lib/auth/user-token';
import type { loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';

/**
 * Requests as a tenant's clients send them (bench/mixed.ts, bench/scale.ts): its bank's signed lookups and posts
 * (psp-api.md §5), and bearer tokens of its partner's two credentials and of its merchant's owner. The demo data's
 * clients (bank BDEMO, partner PDEMO, the demo owner) are the default tenant.
 */
export const jakartaNow = () => new Date(Date.now() + 7 * 3_600_000).toISOString().replace('Z', '+07:00');

/** A bank's code and its lookup and event keys. */
export interface BankKeys {
  code: string;
  lookupKeyId: string;
  lookupSecret: string;
  eventKeyId: string;
  eventSecret: string;
}

/** A JWT-mode partner credential, as its token endpoint takes it. */
export interface PartnerSecret {
  credentialKey: string;
  secret: string;
}

/**
 * One tenant: a bank, a merchant of it (its outlets' NMIDs, the phone a bank searches it by, its owner), and a
 * partner's contract A and B credentials that reach the merchant.
 */
export interface TenantKeys {
  bank: BankKeys;
  merchantId: string;
  phone: string;
  nmids: readonly string[];
  ownerUserId: string;
  partner: { contractA: PartnerSecret; contractB: PartnerSecret };
}

export interface Tokens {
  partnerA: string;
  partnerB: string;
  user: string;
}

export type Tenant = TenantKeys & { tokens: Tokens };

/** The demo data's clients; the phone is the demo merchant's (its seed). */
export const DEMO_TENANT: TenantKeys = {
  bank: DEMO.bank,
  merchantId: DEMO.merchantId,
  phone: '+6281234567890',
  nmids: DEMO.outlets.map((o) => o.nmid),
  ownerUserId: DEMO.owner.userId,
  partner: DEMO.partner.credentials,
};

/** A request as the benchmarks build it (autocannon's fields). */
export interface ClientRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends one request to `origin`; an answer of 400 or more throws, with its status and start. */
export async function sendOnce(origin: string, r: ClientRequest): Promise<void> {
  const res = await request(`${origin}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  const text = await res.body.text();
  if (res.statusCode >= 400) throw new Error(`${r.method} ${r.path}: ${res.statusCode} ${text.slice(0, 200)}`);
}

export function bankLookup(path: string, bank: BankKeys = DEMO.bank) {
  const timestamp = new Date().toISOString();
  const headers = {
    'x-api-key-id': bank.lookupKeyId,
    'x-timestamp': timestamp,
    'x-signature': hmacHex(bank.lookupSecret, signedString('GET', path, timestamp, '')),
  };
  return { method: 'GET' as const, path, headers };
}

export function bankPost(path: string, payload: unknown, bank: BankKeys = DEMO.bank) {
  const body = JSON.stringify(payload);
  const timestamp = jakartaNow();
  const headers = {
    'content-type': 'application/json',
    'x-psp-key-id': bank.eventKeyId,
    'x-psp-timestamp': timestamp,
    'x-psp-signature': hmacHex(bank.eventSecret, signedString('POST', path, timestamp, body)),
  };
  return { method: 'POST' as const, path, headers, body };
}

/** Tokens of a tenant's contract A and B credentials (its token endpoint) and of its owner (a session written as the merchant subgraph writes one: a login per run would hit the OTP caps). */
export async function tenantTokens(
  rest: string,
  pg: PgClient,
  config: ReturnType<typeof loadConfig>,
  tenant: TenantKeys = DEMO_TENANT,
): Promise<Tokens> {
  const sessionId = uuidv7();
  await pg.query(
    `insert into merchant.user_sessions (id, user_id, platform_code, auth_method, created_at, expires_at) values ($1, $2, 'mobile_app', 'otp', now(), now() + interval '1 day')`,
    [sessionId, tenant.ownerUserId],
  );
  const partnerToken = async (c: PartnerSecret) => {
    const res = await request(`${rest}/api/partner/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credential_key: c.credentialKey, credential_secret: c.secret }),
    });
    return ((await res.body.json()) as { access_token: string }).access_token;
  };
  return {
    partnerA: await partnerToken(tenant.partner.contractA),
    partnerB: await partnerToken(tenant.partner.contractB),
    user: (await signUserAccessToken({ userId: tenant.ownerUserId, sessionId }, config.secrets.userTokenSecret)).token,
  };
}
