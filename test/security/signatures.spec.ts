import { DEMO } from '@lib/domain/demo/demo-ids';
import { issuePartnerCredential } from '@scripts/database-tasks';
import { hmacHex, rfc3339Now } from '../support/route-requests';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * Signed schemes (DESIGN.md §4): bank lookups, bank events and settlements, partner HMAC mode. Each tampering of
 * a correctly signed request — method, path, query, body, timestamp, key id, hex case, whitespace — and a replay
 * outside ±300 s is 401 `unauthorized` with nothing stored; the untampered request is accepted (control).
 */
interface Scheme {
  name: string;
  method: string;
  path: string;
  /** Another route's path (or another object's) the same key may call: the signature must pin the path. */
  otherPath: string;
  query: string;
  body: () => string;
  headers: { keyId: string; timestamp: string; signature: string };
  keyId: () => string;
  otherKeyId: string;
  secret: () => string;
}

interface Signed {
  method: string;
  target: string;
  body: string;
  keyId: string;
  timestamp: string;
  signature: string;
}

type Tamper = (signed: Signed, scheme: Scheme) => Partial<Signed>;

const TAMPERINGS: [string, Tamper][] = [
  ['another method', (s) => ({ method: s.method === 'GET' ? 'POST' : 'PUT' })],
  ['another path', (s, scheme) => ({ target: s.target.replace(scheme.path, scheme.otherPath) })],
  ['a query parameter added', (s) => ({ target: `${s.target}${s.target.includes('?') ? '&' : '?'}limit=1` })],
  ['a query value changed', (s) => ({ target: s.target.includes('?') ? s.target.replace(/=([^&]*)/, '=$1z') : `${s.target}?a=1` })],
  ['one body byte changed', (s) => ({ body: s.body.replace(/\d/, (d) => String((Number(d) + 1) % 10)) })],
  ['body whitespace added', (s) => ({ body: `${s.body} ` })],
  ['another timestamp', (s) => ({ timestamp: new Date(Date.parse(s.timestamp) + 1000).toISOString() })],
  ['timestamp in another offset notation', (s) => ({ timestamp: s.timestamp.replace('Z', '+00:00') })],
  ['another key id', (_s, scheme) => ({ keyId: scheme.otherKeyId })],
  ['upper-case hex', (s) => ({ signature: s.signature.toUpperCase() })],
  ['sha256= prefix', (s) => ({ signature: `sha256=${s.signature}` })],
  ['trailing whitespace in the signature', (s) => ({ signature: `${s.signature} ` })],
  ['truncated signature', (s) => ({ signature: s.signature.slice(0, 63) })],
  ['replayed 301 s later', (s, scheme) => resign(s, scheme, { timestamp: rfc3339Now(-301) })],
  ['sent 301 s ahead', (s, scheme) => resign(s, scheme, { timestamp: rfc3339Now(301) })],
];

/** A correct signature over changed parts: only the window can refuse it. */
function resign(signed: Signed, scheme: Scheme, change: Partial<Signed>): Partial<Signed> {
  const next = { ...signed, ...change };
  return { ...change, signature: hmacHex(scheme.secret(), `${next.method}\n${next.target}\n${next.timestamp}\n${next.body}`) };
}

describe('signed requests: tampering and replay', () => {
  let stack: TestStack;
  let partnerHmac = { key: '', secret: '' };
  let seq = 0;

  const event = () =>
    JSON.stringify({
      external_event_id: `sig-${++seq}`,
      event_type: 'transaction.success',
      nmid: DEMO.outlets[0].nmid,
      gross_amount: 15_000,
      transaction_code: `SIG-${seq}`,
      transaction_at: rfc3339Now(),
    });
  const settlement = () =>
    JSON.stringify({
      external_event_id: `sig-s-${++seq}`,
      settlement_id: `SET-${seq}`,
      nmid: DEMO.outlets[0].nmid,
      bank_code: DEMO.bank.code,
      gross_amount: 1000,
      mdr_total: 7,
      net_amount: 993,
      settlement_date: '2026-11-02',
      completed_at: rfc3339Now(),
    });
  const SCHEMES: Scheme[] = [
    {
      name: 'bank lookup',
      method: 'GET',
      path: `/api/psp/v1/merchants/${DEMO.merchantId}`,
      otherPath: `/api/psp/v1/merchants/${DEMO.otherMerchants[0].id}`,
      query: 'include_outlets=true',
      body: () => '',
      headers: { keyId: 'x-api-key-id', timestamp: 'x-timestamp', signature: 'x-signature' },
      keyId: () => DEMO.bank.lookupKeyId,
      otherKeyId: DEMO.bank.eventKeyId,
      secret: () => DEMO.bank.lookupSecret,
    },
    {
      name: 'bank event',
      method: 'POST',
      path: '/psp/v1/events',
      otherPath: '/psp/v1/settlements',
      query: '',
      body: event,
      headers: { keyId: 'x-psp-key-id', timestamp: 'x-psp-timestamp', signature: 'x-psp-signature' },
      keyId: () => DEMO.bank.eventKeyId,
      otherKeyId: DEMO.bank.lookupKeyId,
      secret: () => DEMO.bank.eventSecret,
    },
    {
      name: 'bank settlement',
      method: 'POST',
      path: '/psp/v1/settlements',
      otherPath: '/psp/v1/events',
      query: '',
      body: settlement,
      headers: { keyId: 'x-psp-key-id', timestamp: 'x-psp-timestamp', signature: 'x-psp-signature' },
      keyId: () => DEMO.bank.eventKeyId,
      otherKeyId: DEMO.bank.lookupKeyId,
      secret: () => DEMO.bank.eventSecret,
    },
    {
      name: 'partner HMAC',
      method: 'GET',
      path: `/api/partner/v1/merchants/${DEMO.merchantId}/transactions`,
      otherPath: `/api/partner/v1/merchants/${DEMO.otherMerchants[1].id}/transactions`,
      query: 'period=daily&anchor_date=2026-11-02',
      body: () => '',
      headers: { keyId: 'x-partner-key-id', timestamp: 'x-partner-timestamp', signature: 'x-partner-signature' },
      keyId: () => partnerHmac.key,
      otherKeyId: DEMO.partner.credentials.contractA.credentialKey,
      secret: () => partnerHmac.secret,
    },
  ];

  function sign(scheme: Scheme): Signed {
    const target = scheme.query ? `${scheme.path}?${scheme.query}` : scheme.path;
    const body = scheme.body();
    const timestamp = rfc3339Now();
    return {
      method: scheme.method,
      target,
      body,
      keyId: scheme.keyId(),
      timestamp,
      signature: hmacHex(scheme.secret(), `${scheme.method}\n${target}\n${timestamp}\n${body}`),
    };
  }

  const send = (scheme: Scheme, s: Signed) =>
    stack.rest.inject({
      method: s.method as 'GET',
      url: s.target,
      headers: {
        [scheme.headers.keyId]: s.keyId,
        [scheme.headers.timestamp]: s.timestamp,
        [scheme.headers.signature]: s.signature,
        ...(s.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(s.body ? { payload: s.body } : {}),
    });

  beforeAll(async () => {
    stack = await startTestStack();
    const issued = await issuePartnerCredential(stack.config, stack.database.adminUrl, {
      partnerCode: DEMO.partner.code,
      name: 'hmac for tampering tests',
      contract: 'A',
      scopes: ['transaction.read'],
      mode: 'hmac',
      rateLimitPerMinute: 100000,
    });
    partnerHmac = { key: issued.credential_key, secret: issued.credential_secret };
  });
  afterAll(() => stack?.close());

  it.each(SCHEMES.map((s) => [s.name, s] as const))('%s: the untampered request is accepted', async (_name, scheme) => {
    const res = await send(scheme, sign(scheme));
    expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, expect.any(String)]);
  });

  // A GET's body is never read (the routes have no body schema) and is signed as empty: body tampering applies to POSTs.
  const cases = SCHEMES.flatMap((scheme) =>
    TAMPERINGS.filter(([what]) => scheme.method !== 'GET' || (!what.startsWith('body') && !what.startsWith('one body'))).map(
      ([what, tamper]) => [scheme.name, what, scheme, tamper] as const,
    ),
  );
  it.each(cases)('%s with %s → 401, nothing stored', async (_name, what, scheme, tamper) => {
    const before = await stack.database.tableCounts();
    const signed = sign(scheme);
    const tampered = { ...signed, ...tamper(signed, scheme) };
    const res = await send(scheme, tampered);
    // "another method" on a GET route may meet the 405 handler first, which also proves nothing ran.
    const expected = what === 'another method' && res.statusCode === 405 ? 405 : 401;
    expect(res.statusCode).toBe(expected);
    expect(res.json()).toEqual({ error: expect.any(String), code: expected === 401 ? 'unauthorized' : 'method_not_allowed' });
    expect(await stack.database.tableCounts()).toEqual(before);
  });
});
