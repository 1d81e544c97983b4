import { randomUUID } from 'node:crypto';
import { MAX_COLLECTED_VALUES } from '@lib/rest/validation-details';
import { EVENT_TYPES } from '@rest-adapters/psp/routes/events/record/schema';
import { ALL_ROUTES, type Credentials, authedRequest, demoCredentials, pathOf } from '../support/route-requests';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * A 400 lists every problem (docs/decisions/0006-error-body-mapping.md): on each route family a request with several
 * faults answers the documented body, `error` naming the first fault as before, and `details` naming every fault with its
 * JSON pointer and rule, enums with their allowed values; nothing is stored.
 */
describe('error details: a 400 lists every problem', () => {
  let stack: TestStack;
  let credentials: Credentials;

  beforeAll(async () => {
    stack = await startTestStack();
    credentials = await demoCredentials(stack);
  });

  const route = (method: string, url: string) => {
    const found = ALL_ROUTES.find((r) => r.method === method && r.url === url);
    if (!found) throw new Error(`no route ${method} ${url}`);
    return found;
  };

  async function send(method: string, url: string, parts: { path?: string; query?: string; body?: unknown }) {
    const r = route(method, url);
    const before = await stack.database.tableCounts();
    const res = await stack.rest.inject(
      authedRequest(r, credentials, {
        path: parts.path ?? pathOf(r),
        query: parts.query,
        body: parts.body === undefined ? undefined : JSON.stringify(parts.body),
      }),
    );
    expect(await stack.database.tableCounts()).toEqual(before);
    return { status: res.statusCode, body: res.json() };
  }

  it('bank events: a negative amount, an unknown event type, a bad NMID, date-time and empty id, all listed', async () => {
    const res = await send('POST', '/psp/v1/events', {
      body: { external_event_id: '', event_type: 'payment.done', nmid: 'XX1', gross_amount: -5, transaction_at: 'yesterday' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid body (external_event_id): must NOT have fewer than 1 characters',
      code: 'bad_request',
      details: [
        { pointer: '/external_event_id', rule: 'minLength', message: 'must NOT have fewer than 1 characters' },
        {
          pointer: '/event_type',
          rule: 'enum',
          message: expect.stringMatching(/^must be one of: "transaction.success", /),
          allowed: [...EVENT_TYPES],
        },
        { pointer: '/nmid', rule: 'pattern', message: expect.stringContaining('must match pattern') },
        { pointer: '/gross_amount', rule: 'minimum', message: 'must be >= 0' },
        { pointer: '/transaction_at', rule: 'format', message: 'must match format "date-time"' },
      ],
    });
  });

  it('bank lookups: every bad query value, under /query', async () => {
    const res = await send('GET', '/api/psp/v1/merchants', { query: 'limit=0&category_code=12&updated_since=soon' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid querystring (limit): must be >= 1');
    expect(res.body.details).toEqual([
      { pointer: '/query/limit', rule: 'minimum', message: 'must be >= 1' },
      { pointer: '/query/updated_since', rule: 'format', message: 'must match format "date-time"' },
      { pointer: '/query/category_code', rule: 'pattern', message: 'must match pattern "^[0-9]{4}$"' },
    ]);
  });

  it('partner: a bad path id and bad query values in one answer (fastify stops at the first part; the rest is checked too)', async () => {
    const res = await send('GET', '/api/partner/v1/merchants/:merchant_id/transactions', {
      path: `/api/partner/v1/merchants/${'m'.repeat(65)}/transactions`,
      query: 'period=yearly&limit=0',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid params (merchant_id): must NOT have more than 64 characters');
    expect(res.body.details).toEqual([
      { pointer: '/path/merchant_id', rule: 'maxLength', message: 'must NOT have more than 64 characters' },
      {
        pointer: '/query/period',
        rule: 'enum',
        message: 'must be one of: "daily", "weekly", "monthly"',
        allowed: ['daily', 'weekly', 'monthly'],
      },
      { pointer: '/query/limit', rule: 'minimum', message: 'must be >= 1' },
    ]);
  });

  it('partner token exchange: both missing fields', async () => {
    const res = await send('POST', '/api/partner/v1/auth/token', { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(res.body.details.map((d: { pointer: string; rule: string }) => [d.pointer, d.rule])).toEqual([
      ['/credential_key', 'required'],
      ['/credential_secret', 'required'],
    ]);
    expect(res.body.error).toBe(`invalid body (credential_key): ${res.body.details[0].message}`);
  });

  it('app auth: a wrong type and an unknown OTP method with its allowed values', async () => {
    const res = await send('POST', '/auth/request-otp', { body: { phone: 81234567890, method: 'sms' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid body (phone): must be string');
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { pointer: '/phone', rule: 'type', message: 'must be string' },
        { pointer: '/method', rule: 'enum', message: 'must be one of: "messaging", "whatsapp"', allowed: ['messaging', 'whatsapp'] },
      ]),
    );
  });

  it('app registration: the fields the service checks in code (phone, email, postal code, business type) are all listed', async () => {
    const res = await send('POST', '/merchant/registration', {
      body: {
        merchant_name: 'Toko Details',
        business_entity_type: 'Perseorangan',
        business_type_id: 999_999,
        average_monthly_revenue: 1_000_000,
        employee_count: 2,
        contact_phone: 'not a phone',
        contact_email: 'nope',
        postal_code: '12a',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'contact_phone must be an Indonesian phone number',
      code: 'bad_request',
      details: [
        { pointer: '/contact_phone', rule: 'format', message: 'contact_phone must be an Indonesian phone number' },
        { pointer: '/contact_email', rule: 'format', message: 'contact_email must be an email address' },
        { pointer: '/postal_code', rule: 'pattern', message: 'postal_code must be 5 digits' },
        { pointer: '/business_type_id', rule: 'reference', message: 'business_type_id is not an active business type that accepts QRIS' },
      ],
    });
  });

  it.each(['/poslite/sync/push', '/merchant/poslite/sync/push'])('POS %s: faults in array items, with their index', async (url) => {
    const res = await send('POST', url, {
      body: {
        items: [
          { outbox_id: 'x', entity_type: 'invoice', entity_id: randomUUID(), op: 'create' },
          { outbox_id: randomUUID(), entity_type: 'customer', entity_id: randomUUID(), op: '' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid body (items.0.outbox_id): must match format "uuid"');
    expect(res.body.details).toEqual([
      { pointer: '/items/0/outbox_id', rule: 'format', message: 'must match format "uuid"' },
      {
        pointer: '/items/0/entity_type',
        rule: 'enum',
        message: 'must be one of: "sales_order", "stock_movement", "customer"',
        allowed: ['sales_order', 'stock_movement', 'customer'],
      },
      { pointer: '/items/1/op', rule: 'minLength', message: 'must NOT have fewer than 1 characters' },
    ]);
  });

  it('internal: a nullable id reports its format, a nullable enum lists null among its values', async () => {
    const res = await send('POST', '/internal/merchant/status', {
      body: { merchant_id: 'm-1', target_status: 'paused', reason: 'bored' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid body (merchant_id): must match format "uuid"');
    expect(res.body.details).toEqual([
      { pointer: '/merchant_id', rule: 'format', message: 'must match format "uuid"' },
      {
        pointer: '/target_status',
        rule: 'enum',
        message: 'must be one of: "active", "suspended", "deleted"',
        allowed: ['active', 'suspended', 'deleted'],
      },
      {
        pointer: '/reason',
        rule: 'enum',
        message: 'must be one of: "kyc_expired", "violation", "operator_action", "inactivity", "merchant_request", null',
        allowed: ['kyc_expired', 'violation', 'operator_action', 'inactivity', 'merchant_request', null],
      },
    ]);
  });

  it(`input of more than ${MAX_COLLECTED_VALUES} values lists the first problem only (the collecting pass is bounded)`, async () => {
    const items = Array.from({ length: MAX_COLLECTED_VALUES + 1 }, () => 1);
    const res = await send('POST', '/poslite/sync/push', { body: { items } });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveLength(1);
    expect(res.body.error).toBe(
      `invalid body (${res.body.details[0].pointer.slice(1).replaceAll('/', '.')}): ${res.body.details[0].message}`,
    );
  });

  it('at most 50 details', async () => {
    const items = Array.from({ length: 200 }, () => ({ outbox_id: 'x', entity_type: 'customer', entity_id: 'y', op: 'upsert' }));
    const res = await send('POST', '/poslite/sync/push', { body: { items } });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveLength(50);
    expect(res.body.details[0]).toEqual({ pointer: '/items/0/outbox_id', rule: 'format', message: 'must match format "uuid"' });
  });
});
