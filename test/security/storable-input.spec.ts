import { createHmac, randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { MAX_JSON_DEPTH } from '@lib/http/request-limits';
import { createBank, onboardMerchant } from '@scripts/database-tasks';
import { jakartaNow } from '../support/bank-events';
import { sessionFor } from '../support/core-auth';
import { codes, gql } from '../support/graphql';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

interface Key {
  keyId: string;
  secret: string;
}

/** `depth` nested arrays, as JSON text (a value too deep to build with JSON.stringify). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/**
 * Signed, correctly shaped input that PostgreSQL could not store (a lone UTF-16 surrogate, NUL, a year it cannot hold,
 * JSON nested beyond MAX_JSON_DEPTH) is the caller's 400 on every surface, never a 500 (docs/decisions/0007-input-validation-and-bounds.md), and
 * one bank's such input never fails another bank's events sent at the same moment (docs/decisions/0032-micro-batching-bank-calls.md).
 */
describe('input PostgreSQL cannot store', () => {
  let stack: TestStack;
  let keyA: Key;
  let keyB: Key;
  const NMID_A = 'ID1026112240000';
  const NMID_B = 'ID1026112249999';

  /** A signed event body: `fields` over a success event on `nmid`, with `extraRaw` appended as raw JSON text. */
  const signedEvent = (key: Key, nmid: string, fields: Record<string, unknown>, extraRaw = '') => {
    const id = randomUUID();
    const json = JSON.stringify({
      external_event_id: id,
      event_type: 'qris.payment.success',
      nmid,
      gross_amount: 10_000,
      transaction_code: `TRX-${id}`,
      transaction_at: jakartaNow(),
      ...fields,
    });
    const raw = extraRaw ? `${json.slice(0, -1)},${extraRaw}}` : json;
    const timestamp = jakartaNow();
    const signature = createHmac('sha256', key.secret).update(`POST\n/psp/v1/events\n${timestamp}\n${raw}`).digest('hex');
    const headers = {
      'content-type': 'application/json',
      'x-psp-key-id': key.keyId,
      'x-psp-timestamp': timestamp,
      'x-psp-signature': signature,
    };
    return { id, send: () => stack.rest.inject({ method: 'POST', url: '/psp/v1/events', payload: raw, headers }) };
  };
  const stored = async (externalEventId: string) =>
    Number(
      (
        await adminQuery<{ n: string }>(
          stack.database.adminUrl,
          `select count(*) as n from "transaction".payment_events where external_event_id = $1`,
          [externalEventId],
        )
      )[0].n,
    );

  beforeAll(async () => {
    stack = await startTestStack();
    for (const [code, nmid] of [
      ['BSTRA', NMID_A],
      ['BSTRB', NMID_B],
    ] as const) {
      const bank = await createBank(stack.config, stack.database.adminUrl, { code, name: code, tier: 'external' });
      await onboardMerchant(stack.config, stack.database.adminUrl, { name: `Toko ${code}`, bankCode: code, nmids: [nmid], outlets: 1 });
      if (code === 'BSTRA') keyA = { keyId: bank.event_key_id, secret: bank.event_secret };
      else keyB = { keyId: bank.event_key_id, secret: bank.event_secret };
    }
  });
  afterAll(() => stack?.close());

  /** Malformed events of bank B, each correctly signed. */
  const malformed: [string, Record<string, unknown>, string?][] = [
    ['a lone surrogate in payer_name_masked', { payer_name_masked: 'A\ud800B' }],
    ['a lone surrogate in the key of an extra property', { ['note\udc00']: 1 }],
    ['NUL in an extra property', { note: 'a\u0000b' }],
    ['transaction_at in year 0000', { transaction_at: '0000-01-01T00:00:00Z' }],
    ['transaction_at before year 0001 in UTC', { transaction_at: '0001-01-01T06:00:00+07:00' }],
    ['transaction_at in year 10000', { transaction_at: '10000-01-01T00:00:00Z' }],
    ['transaction_at after year 9999 in UTC', { transaction_at: '9999-12-31T23:00:00-07:00' }],
    [`an extra property nested ${MAX_JSON_DEPTH + 1} deep`, {}, `"extra":${nested(MAX_JSON_DEPTH)}`],
    ['an extra property nested 5,000 deep', {}, `"extra":${nested(5000)}`],
    ['an extra property nested 20,000 deep', {}, `"extra":${nested(20_000)}`],
  ];

  // Rows of one length: jest would take a missing third argument for a done callback.
  const rows = malformed.map(([name, fields, extraRaw]) => [name, fields, extraRaw ?? ''] as const);
  it.each(rows)('a signed event with %s is a 400 bad_request and stores nothing', async (_name, fields, extraRaw) => {
    const event = signedEvent(keyB, NMID_B, fields, extraRaw);
    const res = await event.send();
    expect([res.statusCode, res.json().code]).toEqual([400, 'bad_request']);
    expect(await stored(event.id)).toBe(0);
  });

  it(`keeps accepting what can be stored: an extra property nested ${MAX_JSON_DEPTH} deep in all, years 0001 and 9999, paired surrogates`, async () => {
    for (const [fields, extraRaw] of [
      [{ payer_name_masked: 'A😀B' }, `"extra":${nested(MAX_JSON_DEPTH - 1)}`],
      [{ transaction_at: '0001-01-01T00:00:00Z' }],
      [{ transaction_at: '9999-12-31T23:59:59Z' }],
    ] as [Record<string, unknown>, string?][]) {
      const event = signedEvent(keyA, NMID_A, fields, extraRaw);
      const res = await event.send();
      expect([res.statusCode, res.json().status]).toEqual([200, 'success']);
      expect(await stored(event.id)).toBe(1);
    }
  });

  it('answers a bank list query with a date of year 0000 400, and one with a lone surrogate in the query never 500', async () => {
    const sign = (method: string, target: string, raw: string) => {
      const timestamp = jakartaNow();
      return {
        'x-api-key-id': DEMO.bank.lookupKeyId,
        'x-timestamp': timestamp,
        'x-signature': createHmac('sha256', DEMO.bank.lookupSecret).update(`${method}\n${target}\n${timestamp}\n${raw}`).digest('hex'),
      };
    };
    for (const query of ['updated_since=0000-06-01T00:00:00Z', `updated_since=${encodeURIComponent('2026-01-01T00:00:00Z')}&x=%ED%A0%80`]) {
      const target = `/api/psp/v1/merchants?${query}`;
      const res = await stack.rest.inject({ method: 'GET', url: target, headers: sign('GET', target, '') });
      expect([query, res.statusCode < 500]).toEqual([query, true]);
    }
    const target = '/api/psp/v1/merchants?updated_since=0000-06-01T00:00:00Z';
    const res = await stack.rest.inject({ method: 'GET', url: target, headers: sign('GET', target, '') });
    expect([res.statusCode, res.json().code]).toEqual([400, 'bad_request']);
  });

  it('answers a gateway client sending a lone surrogate or NUL (variable or literal) 400 BAD_USER_INPUT, and stores nothing', async () => {
    const headers = await sessionFor(stack, DEMO.owner.userId);
    const count = async () =>
      Number((await adminQuery<{ n: string }>(stack.database.adminUrl, `select count(*) as n from merchant.feedback`))[0].n);
    const before = await count();
    const mutation = `mutation Feedback($input: SubmitFeedbackInput!) { submitFeedback(input: $input) { id } }`;
    for (const message of ['A\ud800B', 'a\u0000b']) {
      const answer = await gql(stack, mutation, { input: { categoryCode: 'app', categoryLabel: 'App', message } }, headers);
      expect([answer.status, codes(answer)]).toEqual([400, ['BAD_USER_INPUT']]);
      expect(answer.errors?.[0].message).toMatch(/^Variable "\$input" got invalid value/);
    }
    const literal = await gql(
      stack,
      `mutation { submitFeedback(input: { categoryCode: "app", categoryLabel: "App", message: "a\\u0000b" }) { id } }`,
      {},
      headers,
    );
    expect([literal.status, codes(literal)]).toEqual([400, ['BAD_USER_INPUT']]);
    expect(literal.errors?.[0].message).toMatch(/^Field "message" got invalid value/);
    expect(await count()).toBe(before);
  });

  it("never fails bank A's events sent at the same moment as bank B's malformed ones: each A event 200 and stored once, each B event 400", async () => {
    for (let round = 0; round < 3; round += 1) {
      const good = Array.from({ length: 20 }, () => signedEvent(keyA, NMID_A, {}));
      const bad = malformed.slice(0, 4).map(([, fields, extraRaw]) => signedEvent(keyB, NMID_B, fields, extraRaw));
      const answers = await Promise.all([...good, ...bad].map((event) => event.send()));
      expect(answers.slice(0, 20).map((res) => [res.statusCode, res.json().status])).toEqual(good.map(() => [200, 'success']));
      expect(answers.slice(20).map((res) => [res.statusCode, res.json().code])).toEqual(bad.map(() => [400, 'bad_request']));
      expect(await Promise.all(good.map(({ id }) => stored(id)))).toEqual(good.map(() => 1));
      expect(await Promise.all(bad.map(({ id }) => stored(id)))).toEqual(bad.map(() => 0));
    }
  });
});
