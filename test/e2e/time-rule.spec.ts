import { DEMO } from '@lib/domain/demo/demo-ids';
import type { RestRoute } from '@lib/rest/route';
import { JAKARTA_TIMES, MAKASSAR_TIMES, type TimeRule, UTC_TIMES, followsTimeRule } from '@lib/time/api-time';
import { REST_ADAPTERS } from '@rest-adapters';
import { SECURITY_STACK_ENV, authedRequest, pathOf, securityStackOfSuite } from '../support/route-requests';
import { adminQuery } from '../support/test-database';

/**
 * The time rule of docs/api/index.md, checked on every JSON answer of every documented route: each route called with
 * the valid input of its OpenAPI examples (partner routes with a contract A and a contract B token, the outlet
 * endpoints enabled) on the seeded demo stack, reads before writes, and every string that looks like a timestamp
 * in the answer must be exactly what its API's rule writes for that instant. The expected rules are written here as
 * the reference states them, not read from the adapters.
 */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const EXPECTED: Record<string, { rule: TimeRule; suffix: RegExp }> = {
  bank: { rule: UTC_TIMES, suffix: /\.\d{3}Z$/ },
  'partner A': { rule: JAKARTA_TIMES, suffix: /\+07:00$/ },
  'partner B': { rule: UTC_TIMES, suffix: /\.\d{3}Z$/ },
  app: { rule: MAKASSAR_TIMES, suffix: /\+08:00$/ },
};
/** Answers that end the session the walk uses, run last. */
const LAST = ['/auth/logout'];
/**
 * Reads of collections, then creations (their ids are used for the routes under `{collection}/:id`), reads by id,
 * changes, deletions, and last the logout.
 */
function phaseOf(route: RestRoute): number {
  if (LAST.includes(route.url)) return 5;
  const byId = route.url.includes('/:');
  if (route.method === 'DELETE') return 4;
  if (route.method === 'GET') return byId ? 2 : 1;
  return byId ? 3 : 0;
}
/** The point of sale's two surfaces (internal key, app bearer) act on the same merchant's objects. */
const collectionOf = (url: string) => url.split('/:')[0].replace(/^\/merchant\/poslite\//, '/poslite/');
/** Body values where an example's cannot be used twice (the second surface's product needs a SKU of its own). */
const BODY_FOR: Record<string, Record<string, string>> = {
  '/merchant/poslite/catalog/products': { sku: 'TIME-RULE-APP', barcode: '8991234567895' },
  '/merchant/poslite/catalog/outlets': { code: 'TIMERULE' },
  // The service surface closed the example's day: the app surface closes the day before.
  '/merchant/poslite/till/closes': { business_day: '2026-11-24' },
};
/** Query values of this stack where an example's do not apply to it. */
const QUERY_FOR: Record<string, Record<string, string>> = {
  '/webhooks/messaging/status': { 'hub.verify_token': SECURITY_STACK_ENV.MESSAGING_WEBHOOK_VERIFY_TOKEN },
  // From the start of the feed: the payments the walk's bank events made are replayed.
  '/merchant/payments/events': { last_event_id: '0' },
};
/**
 * Routes whose valid input cannot come from the documents' examples on a seeded stack: a one-time code or token
 * sent to a person (OTP, refresh token, ID token, a device-login cancel link), or a state the demo data is not in (an
 * open registration, a user without a merchant, a generated statement). Their bodies' instants are those of routes walked here with the
 * same schemas (the profile).
 */
const NOT_FROM_EXAMPLES = [
  'GET /auth/device-login/cancel',
  'POST /auth/verify-otp',
  'POST /auth/external-phone-verify',
  'POST /auth/refresh',
  'POST /auth/profile/email/verify-otp',
  'POST /merchant/registration',
  'POST /internal/merchant/registration/review',
  'POST /internal/merchant/registration/approve',
  // The demo data holds no generated statement (its file is a PDF or CSV, not JSON, all the same).
  'GET /merchant/statements/:id/download',
  // The second surface voids the order the first one voided: 500 `internal_error`, as core-api.md §7 documents.
  'PATCH /merchant/poslite/sales/orders/:id',
];

/** Routes whose success answer is not JSON: event streams, the QRIS sticker, the webhook's text challenge, 204s. */
const otherAnswers = new Set<string>();

/** The id of the first object with a UUID `id` in an answer (a creation, or a list's first item). */
function firstId(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const id = firstId(v);
      if (id) return id;
    }
  } else if (value && typeof value === 'object') {
    const id = (value as { id?: unknown }).id;
    if (typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) return id;
    for (const v of Object.values(value)) {
      const inner = firstId(v);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Ids of objects the walk read or created, by collection URL. */
const created = new Map<string, string>();

/**
 * A body's `<thing>_id` fields, at any depth, set to the ids of `<things>` the walk met (a product's category, the
 * variants of a pushed sales order: the demo catalog's).
 */
function withCreatedIds(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withCreatedIds);
  if (!body || typeof body !== 'object') return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = key.slice(0, -3);
    const plural = name.endsWith('y') ? `${name.slice(0, -1)}ies` : `${name}s`;
    const found =
      key.endsWith('_id') && key !== 'merchant_id' && key !== 'outlet_id' && [...created].find(([url]) => url.endsWith(`/${plural}`));
    out[key] = found ? found[1] : withCreatedIds(value);
  }
  return out;
}

function apiOf(route: RestRoute): 'bank' | 'partner' | 'app' {
  if (route.url.startsWith('/api/psp/') || route.url.startsWith('/psp/')) return 'bank';
  if (route.url.startsWith('/api/partner/')) return 'partner';
  return 'app';
}

/** Every string of a JSON value with its path. */
function stringsOf(value: unknown, path = '$', into: { path: string; text: string }[] = []) {
  if (typeof value === 'string') into.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => stringsOf(v, `${path}[${i}]`, into));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) stringsOf(v, `${path}.${k}`, into);
  return into;
}

describe('one time rule per API, on every JSON answer of every route', () => {
  const suite = securityStackOfSuite();
  let contractB: string;
  const answers: { label: string; api: string; status: number; body: unknown }[] = [];

  beforeAll(async () => {
    await adminQuery(suite.stack.database.adminUrl, `update merchant.partner_credentials set outlets_enabled = true`);
    const { contractB: b } = DEMO.partner.credentials;
    const token = await suite.stack.rest.inject({
      method: 'POST',
      url: '/api/partner/v1/auth/token',
      payload: { credential_key: b.credentialKey, credential_secret: b.secret },
    });
    contractB = `Bearer ${token.json().access_token}`;

    const routes = REST_ADAPTERS.flatMap((adapter) => adapter.routes);
    for (const route of [...routes].sort((a, b) => phaseOf(a) - phaseOf(b))) {
      const examples = route.examples ?? {};
      if (route.url.endsWith('/sync/push')) {
        // A variant of the merchant's catalog (the product created above), for the sales order the example pushes.
        const [variant] = await adminQuery<{ id: string }>(
          suite.stack.database.adminUrl,
          `select id from catalog.variants where merchant_id = $1 and deleted_at is null order by created_at desc limit 1`,
          [DEMO.merchantId],
        );
        if (variant) created.set('/catalog/variants', variant.id);
      }
      const params = { ...(examples.params as Record<string, string> | undefined) };
      // Point-of-sale objects by id: those the walk created or listed (the examples' ids are not in the demo data).
      const own = created.get(route.url.split('/:')[0]) ?? created.get(collectionOf(route.url));
      if (route.url.includes('poslite/') && route.url.includes('/:id') && own) params.id = own;
      const path = pathOf(route, params);
      const example = examples.body && typeof examples.body === 'object' ? { ...examples.body, ...BODY_FOR[route.url] } : examples.body;
      const body = example === undefined ? undefined : JSON.stringify(withCreatedIds(example));
      const contracts = apiOf(route) === 'partner' ? (['A', 'B'] as const) : ([null] as const);
      for (const contract of contracts) {
        // Contract B has parameters of its own (all optional): its answer to none.
        const q = contract === 'B' ? undefined : { ...examples.query, ...QUERY_FOR[route.url] };
        const query =
          q && Object.keys(q).length
            ? new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString()
            : undefined;
        const creds = contract === 'B' ? { ...suite.credentials, partnerAuthorization: contractB } : suite.credentials;
        const res = await suite.stack.rest.inject(authedRequest(route, creds, { path, query, body, headers: examples.headers }));
        const api = contract ? `partner ${contract}` : apiOf(route);
        const label = `${route.method} ${route.url}${contract ? ` (contract ${contract})` : ''}`;
        const type = String(res.headers['content-type'] ?? '');
        if (type.startsWith('text/event-stream'))
          // The live streams' events are JSON too (each `data:` line), in the same API's rule.
          for (const [, data] of res.body.matchAll(/^data: (.*)$/gm))
            answers.push({ label: `${label} event`, api, status: res.statusCode, body: JSON.parse(data) });
        if (!type.startsWith('application/json')) {
          if (res.statusCode < 300) otherAnswers.add(`${route.method} ${route.url}`);
          continue;
        }
        answers.push({ label, api, status: res.statusCode, body: res.json() });
        const id = res.statusCode < 300 && !route.url.includes('/:') ? firstId(res.json()) : undefined;
        for (const key of id ? [route.url, collectionOf(route.url)] : []) if (!created.has(key)) created.set(key, id!);
      }
    }
  }, 120_000);

  it('calls every documented route with valid input: each answers 2xx but those whose input no example can give', () => {
    const failed = answers.filter((a) => a.status >= 300).map((a) => `${a.label} → ${a.status} ${JSON.stringify(a.body)}`);
    expect(failed.filter((f) => !NOT_FROM_EXAMPLES.some((route) => f.startsWith(`${route} →`)))).toEqual([]);
    // Every route answered 2xx JSON at least once, but those above and those whose answer is not JSON.
    const answered = new Set(answers.filter((a) => a.status < 300).map((a) => a.label.replace(/ \(contract [AB]\)$/, '')));
    const silent = REST_ADAPTERS.flatMap((adapter) => adapter.routes)
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !answered.has(r) && !otherAnswers.has(r) && !NOT_FROM_EXAMPLES.includes(r));
    expect(silent).toEqual([]);
    // What answered no JSON: the event streams, the QRIS sticker (SVG), the webhook's text challenge and deletions (204).
    for (const route of otherAnswers) expect(route).toMatch(/\/events$|\/qris$|^GET \/webhooks\/|^DELETE /);
  });

  it('writes every timestamp of every JSON answer by its API’s rule', () => {
    const checked: Record<string, number> = {};
    const wrong: string[] = [];
    for (const answer of answers)
      for (const { path, text } of stringsOf(answer.body)) {
        if (!TIMESTAMP.test(text)) continue;
        const { rule, suffix } = EXPECTED[answer.api];
        checked[answer.api] = (checked[answer.api] ?? 0) + 1;
        if (!suffix.test(text) || !followsTimeRule(rule, text)) wrong.push(`${answer.label} ${path}: ${text} (${rule.name})`);
      }
    expect(wrong).toEqual([]);
    // Each API answered instants to check (the seeded stack has merchants, transactions, outlets and sessions).
    expect(answers.some((a) => a.label.endsWith(' event'))).toBe(true); // a live stream's event too
    expect(Object.keys(checked).sort()).toEqual(['app', 'bank', 'partner A', 'partner B']);
  });
});
