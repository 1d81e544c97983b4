// Signing sample, Node 18 or later, no dependencies: `node signing.mjs bank` or `node signing.mjs partner`.
//   bank:    a lookup by NMID signed with the lookup key, then a payment event signed with the event key.
//   partner: JWT mode: the token exchange, then the referral merchants with the bearer token; HMAC mode
//            (PARTNER_AUTH=hmac): the same list, the request signed.
// Settings from the environment, defaults the demo data of `npm start`: BASE; BANK_LOOKUP_KEY_ID, BANK_LOOKUP_SECRET,
// BANK_EVENT_KEY_ID, BANK_EVENT_SECRET, NMID; PARTNER_ID, PARTNER_KEY, PARTNER_SECRET, PARTNER_AUTH (jwt or hmac).
import { createHmac } from 'node:crypto';

const env = (name, fallback) => process.env[name] || fallback;
const BASE = env('BASE', 'http://localhost:8080');

// The string to sign: method, request target (path and query, as sent), timestamp and raw body, joined by "\n".
// The signature: lowercase hex HMAC-SHA256 of it under the key's secret.
function sign(secret, method, target, timestamp, body) {
  return createHmac('sha256', secret).update(`${method}\n${target}\n${timestamp}\n${body}`, 'utf8').digest('hex');
}

// RFC 3339 with an offset, Jakarta time (+07:00), to the second.
function timestamp() {
  return `${new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 19)}+07:00`;
}

// Sends the request and prints its status line, and its body unless it is a token (quiet); exits 1 on a non-2xx.
async function send(method, target, headers, body = '', quiet = false) {
  if (body) headers = { ...headers, 'Content-Type': 'application/json' };
  const res = await fetch(BASE + target, { method, headers, body: body || undefined });
  const text = await res.text();
  console.log(`${method} ${target} -> ${res.status}`);
  if (!quiet || !res.ok) console.log(text);
  if (!res.ok) process.exit(1);
  return text;
}

async function bank() {
  const nmid = env('NMID', 'ID1026112200001');
  // 1. A lookup, signed with the lookup key (headers X-API-Key-ID, X-Timestamp, X-Signature).
  const lookupTarget = `/api/psp/v1/merchants/by-nmid/${nmid}?include_outlets=true`;
  let ts = timestamp();
  await send('GET', lookupTarget, {
    'X-API-Key-ID': env('BANK_LOOKUP_KEY_ID', 'lk_demo'),
    'X-Timestamp': ts,
    'X-Signature': sign(env('BANK_LOOKUP_SECRET', 'demo-lookup-secret-0123456789abcdef'), 'GET', lookupTarget, ts, ''),
  });

  // 2. A payment event, signed with the event key (headers X-PSP-Key-ID, X-PSP-Timestamp, X-PSP-Signature). The
  // body is sent byte for byte as signed.
  ts = timestamp();
  const id = `SAMPLE-NODE-${Date.now()}`;
  const body = JSON.stringify({
    external_event_id: id,
    event_type: 'qris.payment.success',
    nmid,
    gross_amount: 25000,
    transaction_code: `TRX-${id}`,
    transaction_at: ts,
    status: 'success',
  });
  const secret = env('BANK_EVENT_SECRET', 'demo-event-secret-0123456789abcdef0');
  await send(
    'POST',
    '/psp/v1/events',
    {
      'X-PSP-Key-ID': env('BANK_EVENT_KEY_ID', 'ek_demo'),
      'X-PSP-Timestamp': ts,
      'X-PSP-Signature': sign(secret, 'POST', '/psp/v1/events', ts, body),
    },
    body,
  );
}

async function partner() {
  const key = env('PARTNER_KEY', 'pk_demo_a');
  const secret = env('PARTNER_SECRET', 'demo-partner-secret-a-0123456789abcdef');
  const target = `/api/partner/v1/partners/${env('PARTNER_ID', '019a0000-0000-7000-8000-00000000f001')}/referral-merchants`;
  if (env('PARTNER_AUTH', 'jwt') === 'hmac') {
    // HMAC mode: headers X-Partner-Key-ID, X-Partner-Timestamp, X-Partner-Signature on every request.
    const ts = timestamp();
    await send('GET', target, {
      'X-Partner-Key-ID': key,
      'X-Partner-Timestamp': ts,
      'X-Partner-Signature': sign(secret, 'GET', target, ts, ''),
    });
    return;
  }
  // JWT mode: the token exchange, then `Authorization: Bearer <access_token>` until it expires (contract A:
  // expires_in_secs, B: expires_in).
  const body = JSON.stringify({ credential_key: key, credential_secret: secret });
  const token = JSON.parse(await send('POST', '/api/partner/v1/auth/token', {}, body, true));
  console.log(`access token received for partner ${token.partner_code}`);
  await send('GET', target, { Authorization: `Bearer ${token.access_token}` });
}

const which = process.argv[2];
if (which === 'bank') await bank();
else if (which === 'partner') await partner();
else {
  console.error('usage: node signing.mjs bank|partner');
  process.exit(2);
}
