import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';
import { PaymentEventService } from '../payment-event/payment-event.service';
import type { PaymentEventInput } from '../payment-event/payment-event.type';
import { SettlementService } from './settlement.service';
import type { SettlementInput } from './settlement.type';

const BANK = 'BTEST';
const OTHER_BANK = 'BOTHER';

describe('SettlementService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  let seq = 0;
  const fork = () => orm.em.fork() as EntityManager;
  const sql = async <T = Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await orm.em.getKnex().raw(text, params as never[])).rows as T[];
  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: { message: string; extensions?: Record<string, unknown> }) => ({ message: error.message, ...error.extensions }),
    );

  /** An outlet with its own NMID, and a way to pay into it through the event intake. */
  function newOutlet() {
    seq += 1;
    const outlet = { merchantId: uuidv7(), outletId: uuidv7(), nmid: `ID20261122${String(seq).padStart(5, '0')}` };
    const pay = async (transactionAt: string, grossAmount: number, over: Partial<PaymentEventInput> = {}, bank = BANK) => {
      const result = await new PaymentEventService(fork()).record(
        {
          externalEventId: `evt-${uuidv7()}`,
          eventType: 'transaction.success',
          payload: {},
          nmid: outlet.nmid,
          transactionCode: `TRX-${uuidv7()}`,
          transactionAt: new Date(transactionAt),
          grossAmount,
          target: {
            merchantId: outlet.merchantId,
            merchantStatus: 'active',
            categoryCode: null,
            outletId: outlet.outletId,
            multiOutlet: false,
            nmidStatus: 'active',
          },
          ...over,
        },
        bank,
      );
      expect(result.status).toBe('success');
      return result.transactionId!;
    };
    const settlement = (over: Partial<SettlementInput> = {}): SettlementInput => {
      const gross = over.grossAmount ?? 0;
      const mdr = over.mdrTotal ?? Math.round(gross * 0.007);
      return {
        externalEventId: `stl-evt-${uuidv7()}`,
        settlementId: `STL-${uuidv7()}`,
        nmid: outlet.nmid,
        grossAmount: gross,
        mdrTotal: mdr,
        netAmount: gross - mdr,
        settlementDate: '2026-11-22',
        completedAt: new Date('2026-11-23T02:00:00Z'),
        payload: { settlement_id: 'as sent' },
        outletId: outlet.outletId,
        merchantId: outlet.merchantId,
        ...over,
      };
    };
    return { ...outlet, pay, settlement };
  }
  const settle = (input: SettlementInput, bank = BANK) => new SettlementService(fork()).record(input, bank);
  const transactionsOf = (ids: string[]) =>
    sql(
      'select id, settlement_status, settled_at, settlement_ref from "transaction".transactions where id = any(?) order by transaction_at',
      [ids],
    );
  const countSettlements = async (where: string, params: unknown[]) =>
    Number((await sql(`select count(*) as n from "transaction".settlements where ${where}`, params))[0].n);

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(transactionSubgraph, loadConfig({ DATABASE_URL: database.adminUrl, DB_POOL_MAX: '20' }));
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });

  it('settles the transactions of the Jakarta business day: 17:00:00Z starts the next one', async () => {
    const o = newOutlet();
    const dayBefore = await o.pay('2026-11-21T16:59:59Z', 1_000); // 2026-11-21 23:59:59 WIB
    const firstOfDay = await o.pay('2026-11-21T17:00:00Z', 10_000); // 2026-11-22 00:00:00 WIB
    const lastOfDay = await o.pay('2026-11-22T16:59:59Z', 20_000); // 2026-11-22 23:59:59 WIB
    const nextDay = await o.pay('2026-11-22T17:00:00Z', 40_000); // 2026-11-23 00:00:00 WIB

    const input = o.settlement({ grossAmount: 30_000 });
    const result = await settle(input);
    expect(result).toEqual({
      settlementRef: expect.any(String),
      status: 'success',
      settlementId: input.settlementId,
      matchedCount: 2,
      matchedAmount: 30_000,
      grossAmount: 30_000,
      discrepancyAmount: 0,
      reconciled: true,
      errorCode: null,
    });
    const completed = '2026-11-23 02:00:00+00';
    expect(await transactionsOf([dayBefore, firstOfDay, lastOfDay, nextDay])).toEqual([
      { id: dayBefore, settlement_status: 'unsettled', settled_at: null, settlement_ref: null },
      { id: firstOfDay, settlement_status: 'settled', settled_at: completed, settlement_ref: result.settlementRef },
      { id: lastOfDay, settlement_status: 'settled', settled_at: completed, settlement_ref: result.settlementRef },
      { id: nextDay, settlement_status: 'unsettled', settled_at: null, settlement_ref: null },
    ]);
    const [stored] = await sql('select * from "transaction".settlements where id = ?', [result.settlementRef]);
    expect(stored).toMatchObject({
      bank_code: BANK,
      external_event_id: input.externalEventId,
      settlement_id: input.settlementId,
      nmid: o.nmid,
      merchant_id: o.merchantId,
      outlet_id: o.outletId,
      gross_amount: '30000',
      mdr_total: '210',
      net_amount: '29790',
      completed_at: completed,
      payload: { settlement_id: 'as sent' },
      status: 'success',
      error_code: null,
      matched_count: 2,
      matched_amount: '30000',
    });
    expect(
      (
        await sql(`select to_char(settlement_date, 'YYYY-MM-DD') as d from "transaction".settlements where id = ?`, [result.settlementRef])
      )[0].d,
    ).toBe('2026-11-22');

    const next = await settle(o.settlement({ grossAmount: 40_000, settlementDate: '2026-11-23' }));
    expect(next).toMatchObject({ status: 'success', matchedCount: 1, matchedAmount: 40_000, reconciled: true });
    const previous = await settle(o.settlement({ grossAmount: 1_000, settlementDate: '2026-11-21' }));
    expect(previous).toMatchObject({ matchedCount: 1, matchedAmount: 1_000, reconciled: true });
  });

  it('matches only unsettled successes of this bank, of that outlet or NMID; answers the discrepancy', async () => {
    const o = newOutlet();
    const at = '2026-11-22T05:00:00Z';
    const success = await o.pay(at, 10_000);
    const partlyRefunded = await o.pay(at, 20_000);
    const refunded = await o.pay(at, 5_000);
    const reversed = await o.pay(at, 7_000);
    const failed = await o.pay(at, 9_000, { eventType: 'transaction.failed' });
    const otherBank = await o.pay(at, 11_000, {}, OTHER_BANK);
    // The NMID's transactions recorded under another outlet id still belong to it (and vice versa).
    const sameNmidOtherOutlet = await o.pay(at, 3_000, {
      target: { merchantId: o.merchantId, merchantStatus: 'active', outletId: uuidv7(), multiOutlet: true, nmidStatus: 'active' },
    });
    const intake = new PaymentEventService(fork());
    const follow = (eventType: string, id: string, grossAmount: number | null) =>
      sql<{ transaction_code: string }>('select transaction_code from "transaction".transactions where id = ?', [id]).then(([row]) =>
        intake.record(
          {
            externalEventId: `evt-${uuidv7()}`,
            eventType,
            payload: {},
            nmid: o.nmid,
            transactionCode: row.transaction_code,
            transactionAt: new Date(at),
            grossAmount,
            target: { merchantId: o.merchantId, merchantStatus: 'active', outletId: o.outletId, multiOutlet: false, nmidStatus: 'active' },
          },
          BANK,
        ),
      );
    await follow('transaction.refunded', partlyRefunded, 1_000);
    await follow('transaction.refunded', refunded, null);
    await follow('transaction.reversed', reversed, null);

    const result = await settle(o.settlement({ grossAmount: 40_000 }));
    // success 10,000 + partly refunded 20,000 (full gross) + same NMID 3,000
    expect(result).toMatchObject({
      status: 'success',
      matchedCount: 3,
      matchedAmount: 33_000,
      grossAmount: 40_000,
      discrepancyAmount: 7_000,
      reconciled: false,
    });
    const settled = await sql<{ id: string }>(`select id from "transaction".transactions where settlement_ref = ?`, [result.settlementRef]);
    expect(settled.map((r) => r.id).sort()).toEqual([success, partlyRefunded, sameNmidOtherOutlet].sort());
    expect((await transactionsOf([refunded, reversed, failed, otherBank])).filter((r) => r.settlement_status !== 'unsettled')).toEqual([]);

    // A second settlement of the same day finds nothing left to settle: all of it is a discrepancy.
    expect(await settle(o.settlement({ grossAmount: 33_000 }))).toMatchObject({
      status: 'success',
      matchedCount: 0,
      matchedAmount: 0,
      discrepancyAmount: 33_000,
      reconciled: false,
    });
    // The other bank's own settlement settles its transaction.
    expect(await settle(o.settlement({ grossAmount: 11_000 }), OTHER_BANK)).toMatchObject({ matchedCount: 1, reconciled: true });
  });

  it('stores a settlement of an unknown NMID and rejects it with unknown_nmid; a replay is a new attempt', async () => {
    const o = newOutlet();
    await o.pay('2026-11-22T05:00:00Z', 10_000);
    const input = o.settlement({ grossAmount: 10_000, outletId: null, merchantId: null });
    const result = await settle(input);
    expect(result).toEqual({
      settlementRef: expect.any(String),
      status: 'rejected',
      settlementId: input.settlementId,
      matchedCount: 0,
      matchedAmount: 0,
      grossAmount: 10_000,
      discrepancyAmount: 10_000,
      reconciled: false,
      errorCode: 'unknown_nmid',
    });
    expect(
      (await sql('select status, error_code, payload from "transaction".settlements where id = ?', [result.settlementRef]))[0],
    ).toEqual({
      status: 'rejected',
      error_code: 'unknown_nmid',
      payload: { settlement_id: 'as sent' },
    });
    // Still unknown: rejected again, the same stored settlement (decisions/0028).
    expect(await settle(input)).toEqual(result);
    // Resolved now: applied, once, on the stored row.
    const resolved = { ...input, outletId: o.outletId, merchantId: o.merchantId };
    const applied = await Promise.all(Array.from({ length: 3 }, () => settle(resolved)));
    expect(applied.map((r) => r.status).sort()).toEqual(['duplicate_skipped', 'duplicate_skipped', 'success']);
    for (const r of applied) {
      expect(r).toMatchObject({ settlementRef: result.settlementRef, matchedCount: 1, reconciled: true, errorCode: null });
    }
    expect(await countSettlements('settlement_id = ?', [input.settlementId])).toBe(1);
  });

  it('answers a repeated settlement_id or external_event_id with the first result and changes nothing', async () => {
    const o = newOutlet();
    const paid = await o.pay('2026-11-22T05:00:00Z', 10_000);
    const first = await settle(o.settlement({ grossAmount: 10_000 }));
    const input = o.settlement({ grossAmount: 10_000 });
    const original = await settle(input);
    expect(original.matchedCount).toBe(0);

    const sameSettlementId = await settle({
      ...input,
      externalEventId: `other-${uuidv7()}`,
      completedAt: new Date('2026-11-24T00:00:00Z'),
    });
    const sameEventId = await settle({ ...input, settlementId: `other-${uuidv7()}` });
    expect(sameSettlementId).toEqual({ ...original, status: 'duplicate_skipped' });
    expect(sameEventId).toEqual({ ...original, status: 'duplicate_skipped' });
    expect(await countSettlements('outlet_id = ?', [o.outletId])).toBe(2);
    expect((await transactionsOf([paid]))[0]).toMatchObject({ settlement_ref: first.settlementRef, settled_at: '2026-11-23 02:00:00+00' });
    // Another bank may use the same ids.
    expect((await settle(input, OTHER_BANK)).status).toBe('success');
  });

  it('stores and settles once when the same settlement arrives many times at once', async () => {
    const o = newOutlet();
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => o.pay(`2026-11-22T0${i % 10}:00:00Z`, 1_000)));
    const input = o.settlement({ grossAmount: 20_000 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => settle(i % 2 === 0 ? input : { ...input, externalEventId: `${input.externalEventId}-${i}` })),
    );
    const success = results.filter((r) => r.status === 'success');
    expect(success).toHaveLength(1);
    expect(success[0]).toMatchObject({ matchedCount: 20, matchedAmount: 20_000, reconciled: true });
    expect(
      results
        .filter((r) => r.status === 'duplicate_skipped')
        .filter((r) => r.settlementRef !== success[0].settlementRef || r.matchedCount !== 20),
    ).toEqual([]);
    expect(await countSettlements('outlet_id = ?', [o.outletId])).toBe(1);
    expect((await transactionsOf(ids)).filter((r) => r.settlement_ref !== success[0].settlementRef)).toEqual([]);
  });

  it('settles each transaction once when different settlements of one day race', async () => {
    const o = newOutlet();
    await Promise.all(Array.from({ length: 30 }, (_, i) => o.pay(`2026-11-22T1${i % 6}:00:00Z`, 1_000)));
    const results = await Promise.all(Array.from({ length: 5 }, () => settle(o.settlement({ grossAmount: 30_000 }))));
    expect(results.filter((r) => r.status !== 'success')).toEqual([]);
    expect(results.reduce((sum, r) => sum + r.matchedCount, 0)).toBe(30);
    expect(results.reduce((sum, r) => sum + r.matchedAmount, 0)).toBe(30_000);
  });

  it('refuses amounts that do not add up, negative amounts and bad dates with BAD_USER_INPUT, storing nothing', async () => {
    const o = newOutlet();
    const cases: [Partial<SettlementInput>, string][] = [
      [{ grossAmount: 10_000, mdrTotal: 70, netAmount: 9_931 }, 'netAmount must equal grossAmount - mdrTotal'],
      [{ grossAmount: -1, mdrTotal: 0, netAmount: -1 }, 'grossAmount must not be negative'],
      [{ grossAmount: 10, mdrTotal: 20, netAmount: -10 }, 'netAmount must not be negative'],
      [{ settlementDate: '2026-02-30' }, 'settlementDate must be a date, YYYY-MM-DD'],
      [{ settlementDate: '22-11-2026' }, 'settlementDate must be a date, YYYY-MM-DD'],
      [{ settlementId: '' }, 'settlementId must be 1 to 128 characters'],
      [{ outletId: 'nope' }, 'outletId must be a UUID'],
    ];
    for (const [over, message] of cases) {
      expect(await errorOf(settle(o.settlement(over)))).toEqual({ code: 'BAD_USER_INPUT', message });
    }
    expect(await countSettlements('nmid = ?', [o.nmid])).toBe(0);
  });
});
