import { createHmac, randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { archiveMonthlyPartitions, createBank, ensureMonthlyPartitions, onboardMerchant } from '@scripts/database-tasks';
import { eventually } from '../support/eventually';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

interface Key {
  keyId: string;
  secret: string;
}

/** RFC 3339 with the +07:00 offset, as a Jakarta bank would send it. */
const jakartaNow = (shiftSecs = 0) => new Date(Date.now() + (7 * 3600 + shiftSecs) * 1000).toISOString().replace('Z', '+07:00');

/** psp-api.md §5, computed here from the text: hex HMAC-SHA256 of "METHOD\nPATH\nX-PSP-Timestamp\nRAW BODY". */
function signEvent(key: Key, path: string, raw: string, timestamp = jakartaNow()): Record<string, string> {
  const signature = createHmac('sha256', key.secret).update(`POST\n${path}\n${timestamp}\n${raw}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-psp-key-id': key.keyId,
    'x-psp-timestamp': timestamp,
    'x-psp-signature': signature,
    'x-request-id': randomUUID(),
  };
}

describe('PSP intake: events, settlements, NMID assignment', () => {
  let stack: TestStack;
  let eventKeyA: Key;
  let eventKeyB: Key;
  let lookupKeyA: Key;
  let merchantA: { merchant_id: string; outlets: { outlet_id: string; nmid: string | null }[] };
  const demoLookup: Key = { keyId: DEMO.bank.lookupKeyId, secret: DEMO.bank.lookupSecret };

  const post = (key: Key, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return stack.rest.inject({ method: 'POST', url: path, payload: raw, headers: { ...signEvent(key, path, raw), ...headers } });
  };
  const count = async (table: string, where = 'true', params: unknown[] = []) =>
    Number(
      (
        await adminQuery<{ n: string }>(stack.database.adminUrl, `select count(*) as n from "transaction".${table} where ${where}`, params)
      )[0].n,
    );
  const successEvent = (id: string, overrides: Record<string, unknown> = {}) => ({
    external_event_id: id,
    event_type: 'transaction.success',
    nmid: 'ID1026112230000',
    gross_amount: 100_000,
    transaction_code: `TRX-${id}`,
    reference_number: `REF-${id}`,
    rrn: `RRN${id}`.slice(0, 32),
    transaction_at: jakartaNow(),
    payer_bank_code: '014',
    payer_bank_name: 'BCA',
    payer_name_masked: 'B*** S***',
    mdr_fee_bank: 300,
    switching_fee: 100,
    platform_fee: 50,
    status: 'success',
    ...overrides,
  });

  beforeAll(async () => {
    stack = await startTestStack();
    const a = await createBank(stack.config, stack.database.adminUrl, { code: 'BANKIA', name: 'Bank A', tier: 'external' });
    const b = await createBank(stack.config, stack.database.adminUrl, { code: 'BANKIB', name: 'Bank B', tier: 'external' });
    eventKeyB = { keyId: b.event_key_id, secret: b.event_secret };
    eventKeyA = { keyId: a.event_key_id, secret: a.event_secret };
    lookupKeyA = { keyId: a.lookup_key_id, secret: a.lookup_secret };
    merchantA = await onboardMerchant(stack.config, stack.database.adminUrl, {
      name: 'Toko Intake',
      bankCode: 'BANKIA',
      nmids: ['ID1026112230000', 'ID1026112230001'],
      outlets: 2,
      categoryCode: '5411',
    });
    await onboardMerchant(stack.config, stack.database.adminUrl, {
      name: 'Toko B',
      bankCode: 'BANKIB',
      nmids: ['ID1026112239999'],
      outlets: 1,
    });
  });
  afterAll(() => stack?.close());

  describe('events', () => {
    it('creates a transaction for a success event, with fees, MDR by category and the outlet of a multi-outlet merchant', async () => {
      const res = await post(eventKeyA, '/psp/v1/events', successEvent('evt-1'));
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        status: 'success',
        flow: 'transaction.created',
        event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        merchant_id: merchantA.merchant_id,
        outlet_id: merchantA.outlets[0].outlet_id,
      });
      const [trx] = await adminQuery(
        stack.database.adminUrl,
        `select * from "transaction".transactions where transaction_code = 'TRX-evt-1'`,
      );
      expect(trx).toMatchObject({
        status: 'success',
        gross_amount: '100000',
        mdr_fee_bank: '300',
        switching_fee: '100',
        platform_fee: '50',
        bank_code: 'BANKIA',
      });
      expect(Number(trx.mdr_fee_amount)).toBe(700);
    });

    it('answers a replay with duplicate_skipped and the first event id, storing nothing new', async () => {
      const first = (await post(eventKeyA, '/psp/v1/events', successEvent('evt-2'))).json();
      const again = (await post(eventKeyA, '/psp/v1/events', successEvent('evt-2'))).json();
      expect(again).toMatchObject({ status: 'duplicate_skipped', event_id: first.event_id, merchant_id: merchantA.merchant_id });
      expect(await count('payment_events', "external_event_id = 'evt-2'")).toBe(1);
    });

    it('answers a replay of an event whose month was archived duplicate_skipped with its first answer, storing nothing (docs/decisions/0208-partitioned-history.md)', async () => {
      // A first delivery of 14 months ago (written as the intake wrote it then), in a month of its own, then archived.
      const jakarta = new Date(Date.now() + 7 * 3600_000);
      const monthStart = (back: number) => new Date(Date.UTC(jakarta.getUTCFullYear(), jakarta.getUTCMonth() - back, 1));
      const old = monthStart(14);
      const at = new Date(old.getTime() + 9 * 86_400_000);
      const partition = `payment_events_p${old.getUTCFullYear()}_${String(old.getUTCMonth() + 1).padStart(2, '0')}`;
      await ensureMonthlyPartitions(stack.config, stack.database.adminUrl, { monthsAhead: 3, from: at });
      const eventId = randomUUID();
      const transactionId = randomUUID();
      await adminQuery(
        stack.database.adminUrl,
        `insert into "transaction".transactions (id, merchant_id, outlet_id, bank_code, transaction_code, status, gross_amount, transaction_at,
                                                 created_at, updated_at, net_amount_after_mdr)
         values ($1, $2, $3, 'BANKIA', 'TRX-evt-archived', 'success', 100000, $4, $4, $4, 100000)`,
        [transactionId, merchantA.merchant_id, merchantA.outlets[0].outlet_id, at],
      );
      await adminQuery(
        stack.database.adminUrl,
        `insert into "transaction".payment_events (id, bank_code, external_event_id, event_type, payload, nmid, merchant_id, outlet_id,
                                                   multi_outlet, transaction_id, status, flow, applied, received_at)
         values ($1, 'BANKIA', 'evt-archived', 'transaction.success', '{}', 'ID1026112230000', $2, $3, true, $4, 'success',
                 'transaction.created', true, $5)`,
        [eventId, merchantA.merchant_id, merchantA.outlets[0].outlet_id, transactionId, at],
      );
      const before = monthStart(12).toISOString().slice(0, 7);
      const archived = await archiveMonthlyPartitions(stack.config, stack.database.adminUrl, { before, dryRun: false });
      expect(archived.archived).toContainEqual({
        table: 'payment_events',
        partition,
        archived_as: `archive.${partition}`,
        estimated_rows: expect.any(Number),
      });
      expect(await count('payment_events', "external_event_id = 'evt-archived'")).toBe(0);

      const replays = await Promise.all(
        [1, 2, 3].map(() => post(eventKeyA, '/psp/v1/events', successEvent('evt-archived', { transaction_code: 'TRX-evt-archived' }))),
      );
      for (const res of replays) {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          status: 'duplicate_skipped',
          flow: 'transaction.created',
          event_id: eventId,
          merchant_id: merchantA.merchant_id,
          outlet_id: merchantA.outlets[0].outlet_id,
        });
      }
      expect(await count('payment_events', "external_event_id = 'evt-archived'")).toBe(0);
      expect(await count('transactions', "transaction_code = 'TRX-evt-archived'")).toBe(0);
      expect(await count('payment_event_keys', "external_event_id = 'evt-archived'")).toBe(1);

      // A new event reusing the archived transaction's code is still refused.
      const reuse = await post(eventKeyA, '/psp/v1/events', successEvent('evt-archived-2', { transaction_code: 'TRX-evt-archived' }));
      expect(reuse.statusCode).toBe(422);
      expect(reuse.json()).toMatchObject({ code: 'duplicate_transaction_code' });

      // Dumped and dropped by an operator: the key alone still answers the replay.
      await adminQuery(stack.database.adminUrl, `drop table archive.${partition}`);
      const afterDrop = await post(eventKeyA, '/psp/v1/events', successEvent('evt-archived', { transaction_code: 'TRX-evt-archived' }));
      expect(afterDrop.statusCode).toBe(200);
      expect(afterDrop.json()).toMatchObject({ status: 'duplicate_skipped', event_id: eventId, merchant_id: merchantA.merchant_id });
      expect(await count('payment_events', "external_event_id = 'evt-archived'")).toBe(0);
    });

    it('stores exactly one row per event when 200 events are each replayed 5× concurrently', async () => {
      const ids = Array.from({ length: 200 }, (_, i) => `burst-${i}`);
      // Waves of 10 events × 5 copies at once: every replay races its copies, and the pool's 5 s acquire
      // timeout is not what the test measures on a loaded machine.
      const answers = [];
      for (let wave = 0; wave < ids.length; wave += 10) {
        const batch = ids
          .slice(wave, wave + 10)
          .flatMap((id) => Array.from({ length: 5 }, () => post(eventKeyA, '/psp/v1/events', successEvent(id))));
        answers.push(...(await Promise.all(batch)));
      }
      expect(answers.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
      const byId = new Map<string, Set<string>>();
      answers.forEach((r, i) =>
        byId.set(ids[Math.floor(i / 5)], new Set([...(byId.get(ids[Math.floor(i / 5)]) ?? []), r.json().event_id])),
      );
      expect([...byId].filter(([, set]) => set.size !== 1)).toEqual([]);
      expect(await count('payment_events', "external_event_id like 'burst-%'")).toBe(200);
      expect(await count('transactions', "transaction_code like 'TRX-burst-%'")).toBe(200);
    }, 120_000);

    it('records events of several banks arriving together in shared batches, each scoped as its own bank', async () => {
      const graphqlCalls = () => stack.restFetches('transaction');
      const before = await graphqlCalls();
      // 20 rounds, each: A and B on their own NMIDs with the SAME external id (ids are per bank), each naming the
      // other's NMID (unknown to it), and A sending its event twice.
      const sends = Array.from({ length: 20 }, (_, i) => [
        {
          key: eventKeyA,
          body: successEvent(`mixed-${i}`, { transaction_code: `TRX-mixed-A-${i}` }),
          expect: { merchant_id: merchantA.merchant_id },
        },
        {
          key: eventKeyA,
          body: successEvent(`mixed-${i}`, { transaction_code: `TRX-mixed-A-${i}` }),
          expect: { merchant_id: merchantA.merchant_id },
        },
        {
          key: eventKeyB,
          body: successEvent(`mixed-${i}`, { nmid: 'ID1026112239999', transaction_code: `TRX-mixed-B-${i}` }),
          expect: { status: 'success' },
        },
        {
          key: eventKeyA,
          body: successEvent(`mixed-xa-${i}`, { nmid: 'ID1026112239999' }),
          status: 422,
          expect: { code: 'unknown_nmid', flow: 'recorded_unapplied', merchant_id: null },
        },
        {
          key: eventKeyB,
          body: successEvent(`mixed-xb-${i}`, { nmid: 'ID1026112230000' }),
          status: 422,
          expect: { code: 'unknown_nmid', flow: 'recorded_unapplied', merchant_id: null },
        },
      ]).flat();
      const answers = await Promise.all(sends.map(({ key, body }) => post(key, '/psp/v1/events', body)));
      answers.forEach((answer, i) => {
        expect(answer.statusCode).toBe((sends[i] as { status?: number }).status ?? 200);
        expect(answer.json()).toMatchObject(sends[i].expect);
      });
      // A's two copies: one success, one duplicate_skipped (either may come first), the same event id.
      for (let i = 0; i < 20; i += 1) {
        const [first, copy] = [answers[i * 5].json(), answers[i * 5 + 1].json()];
        expect([first.status, copy.status].sort()).toEqual(['duplicate_skipped', 'success']);
        expect(copy.event_id).toBe(first.event_id);
      }
      const rows = await adminQuery<{ bank_code: string; n: string }>(
        stack.database.adminUrl,
        `select bank_code, count(*) as n from "transaction".payment_events where external_event_id like 'mixed-%' group by bank_code order by bank_code`,
      );
      expect(rows.map((r) => [r.bank_code, Number(r.n)])).toEqual([
        ['BANKIA', 40],
        ['BANKIB', 40],
      ]);
      expect(await count('transactions', "transaction_code like 'TRX-mixed-%' and bank_code = 'BANKIA'")).toBe(20);
      expect(await count('transactions', "transaction_code like 'TRX-mixed-B-%' and bank_code = 'BANKIB'")).toBe(20);
      // 100 events arriving together took far fewer than one recording call each.
      const calls = (await graphqlCalls()) - before;
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThan(50);
    });

    it('stores an event it cannot apply and answers 422 with the error body: unknown NMID, another bank’s NMID, refund of an unknown transaction', async () => {
      const unknown = await post(eventKeyA, '/psp/v1/events', successEvent('evt-unknown', { nmid: 'ID9999999999999' }));
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json()).toEqual({
        error: expect.any(String),
        code: 'unknown_nmid',
        event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        flow: 'recorded_unapplied',
        merchant_id: null,
      });
      // Another bank's NMID is the same unknown_nmid: nothing tells the bank that someone else holds it.
      const foreign = await post(eventKeyA, '/psp/v1/events', successEvent('evt-foreign', { nmid: 'ID1026112239999' }));
      expect(foreign.statusCode).toBe(422);
      expect(foreign.json()).toMatchObject({ code: 'unknown_nmid', merchant_id: null });
      const refund = await post(eventKeyA, '/psp/v1/events', {
        external_event_id: 'evt-refund-x',
        event_type: 'transaction.refunded',
        nmid: 'ID1026112230000',
        transaction_code: 'NOPE',
        transaction_at: jakartaNow(),
      });
      expect(refund.statusCode).toBe(422);
      expect(refund.json()).toMatchObject({ code: 'original_not_found', merchant_id: merchantA.merchant_id });
      expect(await count('payment_events', "external_event_id in ('evt-unknown', 'evt-foreign', 'evt-refund-x')")).toBe(3);
    });

    it('refunds and reverses the original found by transaction code, reference number or RRN', async () => {
      await post(eventKeyA, '/psp/v1/events', successEvent('evt-orig'));
      const refund = (
        await post(eventKeyA, '/psp/v1/events', {
          external_event_id: 'evt-refund',
          event_type: 'qris.payment.refunded',
          nmid: 'ID1026112230000',
          reference_number: 'REF-evt-orig',
          gross_amount: 40_000,
          transaction_at: jakartaNow(),
        })
      ).json();
      expect(refund).toMatchObject({ status: 'success', flow: 'transaction.refunded' });
      const reversal = (
        await post(eventKeyA, '/psp/v1/events', {
          external_event_id: 'evt-rev',
          event_type: 'transaction.reversed',
          nmid: 'ID1026112230000',
          rrn: 'RRNevt-orig',
          transaction_at: jakartaNow(),
        })
      ).json();
      expect(reversal).toMatchObject({ status: 'success', flow: 'transaction.reversed' });
      const [trx] = await adminQuery(
        stack.database.adminUrl,
        `select status, refunded_amount from "transaction".transactions where transaction_code = 'TRX-evt-orig'`,
      );
      expect(trx).toEqual({ status: 'reversed', refunded_amount: '40000' });
    });

    it('records failed and cancelled attempts', async () => {
      expect(
        (await post(eventKeyA, '/psp/v1/events', successEvent('evt-fail', { event_type: 'qris.payment.failed', status: 'failed' }))).json()
          .flow,
      ).toBe('transaction.failed_recorded');
      expect(
        (await post(eventKeyA, '/psp/v1/events', successEvent('evt-cancel', { event_type: 'transaction.cancelled' }))).json().flow,
      ).toBe('transaction.cancelled_recorded');
    });

    it('applies nmid.status_changed to the outlet, once, also on replay', async () => {
      const event = {
        external_event_id: 'evt-nmid',
        event_type: 'nmid.status_changed',
        nmid: 'ID1026112230001',
        nmid_old_status: 'active',
        nmid_new_status: 'suspended',
        nmid_reason: 'fraud review',
        transaction_at: jakartaNow(),
      };
      expect((await post(eventKeyA, '/psp/v1/events', event)).json()).toMatchObject({
        status: 'success',
        flow: 'nmid.status_changed',
        merchant_id: merchantA.merchant_id,
      });
      const [outlet] = await adminQuery(stack.database.adminUrl, `select nmid_status from outlet.outlets where nmid = 'ID1026112230001'`);
      expect(outlet).toEqual({ nmid_status: 'suspended' });
      expect((await post(eventKeyA, '/psp/v1/events', event)).json()).toMatchObject({ status: 'duplicate_skipped' });
      // Intake sees the suspension once the transaction subgraph's copy has it: a job's latency, milliseconds (decision
      // 0215); a payment posted within that window may still be applied, as documented.
      await eventually('the payment target copy never saw the suspension', async () => {
        const [target] = await adminQuery(
          stack.database.adminUrl,
          `select nmid_status from "transaction".payment_targets where nmid = 'ID1026112230001'`,
        );
        return target?.nmid_status === 'suspended' ? target : undefined;
      });
      const blocked = await post(eventKeyA, '/psp/v1/events', successEvent('evt-on-suspended', { nmid: 'ID1026112230001' }));
      expect(blocked.statusCode).toBe(422);
      expect(blocked.json()).toMatchObject({ code: 'nmid_suspended', flow: 'recorded_unapplied' });
    });

    describe('refuses without storing anything', () => {
      const before = () => count('payment_events');

      it.each([
        [
          'a tampered body → 401',
          (raw: string) => ({ raw: raw.replace('100000', '900000'), headers: signEvent(eventKeyA, '/psp/v1/events', raw) }),
          401,
        ],
        ['a signature over another path → 401', (raw: string) => ({ raw, headers: signEvent(eventKeyA, '/psp/v1/settlements', raw) }), 401],
        ['a lookup key → 401', (raw: string) => ({ raw, headers: signEvent(lookupKeyA, '/psp/v1/events', raw) }), 401],
        [
          'a timestamp 301 s old → 401',
          (raw: string) => ({ raw, headers: signEvent(eventKeyA, '/psp/v1/events', raw, jakartaNow(-301)) }),
          401,
        ],
        [
          'a Unix timestamp → 401',
          (raw: string) => ({ raw, headers: signEvent(eventKeyA, '/psp/v1/events', raw, String(Math.floor(Date.now() / 1000))) }),
          401,
        ],
        ['missing signature headers → 401', (raw: string) => ({ raw, headers: { 'content-type': 'application/json' } }), 401],
      ])('%s', async (_name, make, status) => {
        const n = await before();
        const { raw, headers } = make(JSON.stringify(successEvent('evt-bad-sig')));
        const res = await stack.rest.inject({ method: 'POST', url: '/psp/v1/events', payload: raw, headers });
        expect(res.statusCode).toBe(status);
        expect(res.json().code).toBe('unauthorized');
        expect(await before()).toBe(n);
      });

      it.each([
        ['bad JSON → 400', '{"external_event_id": "x",', 400],
        ['an amount as a string → 400', JSON.stringify(successEvent('evt-type', { gross_amount: '100000' })), 400],
        ['a negative amount → 400', JSON.stringify(successEvent('evt-neg', { gross_amount: -5 })), 400],
        ['an unknown event type → 400', JSON.stringify(successEvent('evt-type2', { event_type: 'transaction.teleported' })), 400],
        ['a success without transaction_code → 400', JSON.stringify({ ...successEvent('evt-missing'), transaction_code: undefined }), 400],
        [
          'a refund naming no original → 400',
          JSON.stringify({
            external_event_id: 'evt-r',
            event_type: 'transaction.refunded',
            nmid: 'ID1026112230000',
            transaction_at: jakartaNow(),
          }),
          400,
        ],
        ['a malformed NMID → 400', JSON.stringify(successEvent('evt-nmid-bad', { nmid: '12345' })), 400],
        ['a date without offset → 400', JSON.stringify(successEvent('evt-date', { transaction_at: '2026-11-22 10:00' })), 400],
        ['an oversized body → 413', JSON.stringify(successEvent('evt-big', { payer_name_masked: 'x'.repeat(1_100_000) })), 413],
      ])('%s, with the error body', async (_name, raw, status) => {
        const n = await before();
        const res = await stack.rest.inject({
          method: 'POST',
          url: '/psp/v1/events',
          payload: raw,
          headers: signEvent(eventKeyA, '/psp/v1/events', raw),
        });
        expect(res.statusCode).toBe(status);
        const body = res.json();
        // A field the schema refuses is named in details (broken JSON and the intake's own checks have none).
        expect(body).toEqual({
          error: expect.any(String),
          code: status === 413 ? 'payload_too_large' : 'bad_request',
          ...(body.details
            ? {
                details: [expect.objectContaining({ pointer: expect.stringMatching(/^\/(gross_amount|event_type|nmid|transaction_at)$/) })],
              }
            : {}),
        });
        expect(await before()).toBe(n);
      });
    });
  });

  describe('settlements', () => {
    const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
    const settlement = (id: string, gross: number, overrides: Record<string, unknown> = {}) => ({
      external_event_id: `stl-evt-${id}`,
      settlement_id: `STL-${id}`,
      nmid: 'ID1026112230000',
      bank_code: 'BANKIA',
      gross_amount: gross,
      mdr_total: 700,
      net_amount: gross - 700,
      settlement_date: today(),
      completed_at: jakartaNow(),
      ...overrides,
    });

    it('marks the NMID’s successful transactions of that business date settled and reports the match', async () => {
      const unsettled = await adminQuery<{ n: string; total: string }>(
        stack.database.adminUrl,
        `select count(*) as n, coalesce(sum(gross_amount), 0) as total from "transaction".transactions
          where nmid = 'ID1026112230000' and status in ('success', 'refunded', 'reversed') and settlement_status = 'unsettled' and status = 'success'`,
      );
      const res = await post(eventKeyA, '/psp/v1/settlements', settlement('1', Number(unsettled[0].total)));
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        status: 'success',
        settlement_id: 'STL-1',
        matched_count: Number(unsettled[0].n),
        matched_amount: Number(unsettled[0].total),
        discrepancy_amount: 0,
        reconciled: true,
      });
      expect(await count('transactions', "nmid = 'ID1026112230000' and status = 'success' and settlement_status = 'unsettled'")).toBe(0);
      const again = (await post(eventKeyA, '/psp/v1/settlements', settlement('1', Number(unsettled[0].total)))).json();
      expect(again).toMatchObject({ status: 'duplicate_skipped', settlement_ref: body.settlement_ref });
    });

    it('reports a discrepancy, and stores an unknown NMID’s batch, answering 422 unknown_nmid', async () => {
      expect((await post(eventKeyA, '/psp/v1/settlements', settlement('2', 5_000))).json()).toMatchObject({
        status: 'success',
        matched_count: 0,
        discrepancy_amount: 5_000,
        reconciled: false,
      });
      const unknown = await post(eventKeyA, '/psp/v1/settlements', settlement('3', 5_000, { nmid: 'ID9999999999999' }));
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json()).toEqual({
        error: expect.any(String),
        code: 'unknown_nmid',
        settlement_ref: expect.stringMatching(/^[0-9a-f-]{36}$/),
        settlement_id: 'STL-3',
      });
      expect(await count('settlements', "settlement_id = 'STL-3'")).toBe(1);
    });

    it('a replay of an unapplied event or settlement is a new attempt: 422 until its NMID exists, then applied once, then duplicate_skipped', async () => {
      const nmid = 'ID1026112230077';
      const event = successEvent('evt-early', { nmid, transaction_code: 'TRX-early' });
      const first = await post(eventKeyA, '/psp/v1/events', event);
      expect(first.statusCode).toBe(422);
      const eventId = first.json().event_id;
      // Bank B holding the same external id is its own event (ids are per bank).
      expect((await post(eventKeyB, '/psp/v1/events', event)).json()).toMatchObject({ code: 'unknown_nmid' });
      const again = await post(eventKeyA, '/psp/v1/events', event);
      expect(again.statusCode).toBe(422);
      expect(again.json()).toMatchObject({ code: 'unknown_nmid', event_id: eventId });
      const early = settlement('early', 100_000, { nmid });
      const stored = await post(eventKeyA, '/psp/v1/settlements', early);
      expect(stored.statusCode).toBe(422);

      const late = await onboardMerchant(stack.config, stack.database.adminUrl, {
        name: 'Toko Terlambat',
        bankCode: 'BANKIA',
        nmids: [nmid],
        outlets: 1,
        categoryCode: '5411',
      });
      // Bank B still does not see bank A's NMID: its copy stays unapplied.
      expect((await post(eventKeyB, '/psp/v1/events', event)).statusCode).toBe(422);
      // Five concurrent replays: applied exactly once (one success), the others find it applied.
      const replays = await Promise.all(Array.from({ length: 5 }, () => post(eventKeyA, '/psp/v1/events', event)));
      expect(replays.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(replays.map((r) => r.json().status).sort()).toEqual([
        'duplicate_skipped',
        'duplicate_skipped',
        'duplicate_skipped',
        'duplicate_skipped',
        'success',
      ]);
      for (const r of replays) {
        expect(r.json()).toMatchObject({ event_id: eventId, merchant_id: late.merchant_id, flow: 'transaction.created' });
      }
      expect(await count('payment_events', "external_event_id = 'evt-early' and bank_code = 'BANKIA'")).toBe(1);
      expect(await count('transactions', "transaction_code = 'TRX-early'")).toBe(1);
      expect((await post(eventKeyA, '/psp/v1/events', event)).json()).toMatchObject({ status: 'duplicate_skipped', event_id: eventId });

      const settled = await Promise.all(Array.from({ length: 3 }, () => post(eventKeyA, '/psp/v1/settlements', early)));
      expect(settled.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(settled.map((r) => r.json().status).sort()).toEqual(['duplicate_skipped', 'duplicate_skipped', 'success']);
      for (const r of settled) {
        expect(r.json()).toMatchObject({
          settlement_ref: stored.json().settlement_ref,
          matched_count: 1,
          matched_amount: 100_000,
          reconciled: true,
        });
      }
      expect(await count('settlements', "settlement_id = 'STL-early'")).toBe(1);
      expect(await count('transactions', "transaction_code = 'TRX-early' and settlement_status = 'settled'")).toBe(1);
    });

    it.each([
      ['net ≠ gross − mdr_total', { net_amount: 1 }],
      ['another bank’s code', { bank_code: 'BANKIB' }],
      ['an impossible date', { settlement_date: '2026-02-30' }],
    ])('refuses %s with 400, storing nothing', async (_name, overrides) => {
      const n = await count('settlements');
      const res = await post(eventKeyA, '/psp/v1/settlements', settlement('bad', 10_000, overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('bad_request');
      expect(await count('settlements')).toBe(n);
    });
  });

  describe('NMID assignment', () => {
    const patch = (key: Key, merchantId: string, body: unknown) => {
      const path = `/api/psp/v1/merchants/${merchantId}/nmid-assignment`;
      const raw = JSON.stringify(body);
      const timestamp = new Date().toISOString();
      const signature = createHmac('sha256', key.secret).update(`PATCH\n${path}\n${timestamp}\n${raw}`).digest('hex');
      return stack.rest.inject({
        method: 'PATCH',
        url: path,
        payload: raw,
        headers: { 'content-type': 'application/json', 'x-api-key-id': key.keyId, 'x-timestamp': timestamp, 'x-signature': signature },
      });
    };

    it('is refused to external banks (403)', async () => {
      const res = await patch(lookupKeyA, merchantA.merchant_id, { nmid: 'ID1026112230555' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'only the tier-1 PSP may assign NMIDs', code: 'forbidden' });
    });

    it('assigns an NMID to the default outlet for the tier-1 PSP; a taken NMID is 409, a malformed one 400', async () => {
      const fresh = await onboardMerchant(stack.config, stack.database.adminUrl, {
        name: 'Toko Baru',
        bankCode: DEMO.bank.code,
        nmids: [],
        outlets: 1,
      });
      const res = await patch(demoLookup, fresh.merchant_id, { nmid: 'ID1026112230777', mid: 'MID777' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        merchant_id: fresh.merchant_id,
        outlet_id: fresh.outlets[0].outlet_id,
        nmid: 'ID1026112230777',
        mid: 'MID777',
        bank_code: DEMO.bank.code,
        nmid_status: 'active',
        merchant_status: 'active',
      });
      expect((await patch(demoLookup, fresh.merchant_id, { nmid: 'ID1026112230777', mid: 'MID777' })).statusCode).toBe(200);
      const taken = await patch(demoLookup, fresh.merchant_id, { nmid: 'ID1026112230000' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('nmid_taken');
      expect((await patch(demoLookup, fresh.merchant_id, { nmid: 'XX123' })).statusCode).toBe(400);
      expect((await patch(demoLookup, '019a0000-0000-7000-8000-000000000000', { nmid: 'ID1026112230888' })).statusCode).toBe(404);
      // another bank's merchant: 404, and its outlets keep what they had
      expect((await patch(demoLookup, merchantA.merchant_id, { nmid: 'ID1026112230889' })).statusCode).toBe(404);
      expect(await adminQuery(stack.database.adminUrl, `select 1 from outlet.outlets where nmid = 'ID1026112230889'`)).toEqual([]);
    });
  });
});
