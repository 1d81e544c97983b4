import type { EntityManager } from '@mikro-orm/postgresql';
import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';
import { MdrRepository } from '../mdr/mdr.repository';
import { mdrRateAt } from '../mdr/mdr';
import { PaymentFeedRepository } from '../payment-feed/payment-feed.repository';
import { TransactionService } from '../transaction/transaction.service';
import { type BatchItem, PaymentEventService } from './payment-event.service';
import type { PaymentEventInput, PaymentEventOutcome, PaymentTargetInput } from './payment-event.type';

const BANK = 'BTEST';
const OTHER_BANK = 'BOTHER';

describe('PaymentEventService (real PostgreSQL)', () => {
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

  /** A merchant with one outlet (a fresh one per call unless given), as the adapter resolves it. */
  const target = (over: Partial<PaymentTargetInput> = {}): PaymentTargetInput => ({
    merchantId: uuidv7(),
    merchantStatus: 'active',
    categoryCode: '5814',
    outletId: uuidv7(),
    multiOutlet: false,
    terminalId: null,
    nmidStatus: 'active',
    ...over,
  });
  /** A transaction.success of 100,000 on a fresh merchant, unless told otherwise. */
  const event = (over: Partial<PaymentEventInput> = {}): PaymentEventInput => {
    seq += 1;
    const input: PaymentEventInput = {
      externalEventId: `evt-${seq}-${uuidv7()}`,
      eventType: 'transaction.success',
      payload: {
        external_event_id: `evt-${seq}`,
        event_type: over.eventType ?? 'transaction.success',
        gross_amount: over.grossAmount ?? 100_000,
      },
      nmid: 'ID1026112299001',
      transactionCode: `TRX-${seq}-${uuidv7()}`,
      transactionAt: new Date('2026-11-22T03:00:00Z'),
      grossAmount: 100_000,
      target: target(),
      ...over,
    };
    return input;
  };
  const record = (input: PaymentEventInput, bank = BANK) => new PaymentEventService(fork()).record(input, bank);
  const transactionOf = async (id: string) => (await sql('select * from "transaction".transactions where id = ?', [id]))[0];
  const eventRowOf = async (id: string) => (await sql('select * from "transaction".payment_events where id = ?', [id]))[0];
  const countEvents = async (where = 'true', params: unknown[] = []) =>
    Number((await sql(`select count(*) as n from "transaction".payment_events where ${where}`, params))[0].n);

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    // A larger pool than a request needs: the concurrency tests run hundreds of transactions at once.
    orm = await openSubgraphOrm(transactionSubgraph, loadConfig({ DATABASE_URL: database.adminUrl, DB_POOL_MAX: '20' }));
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });

  describe('the MDR table', () => {
    it('gives each segment its rate by MCC, and the regular rate to any other MCC or none', async () => {
      const mdr = new MdrRepository(fork());
      const cases: [string | null, string][] = [
        ['5814', '0.0070'],
        ['0000', '0.0070'],
        [null, '0.0070'],
        ['8211', '0.0060'],
        ['8220', '0.0060'],
        ['8241', '0.0060'],
        ['8244', '0.0060'],
        ['8249', '0.0060'],
        ['8299', '0.0060'],
        ['5541', '0.0040'],
        ['5542', '0.0040'],
        ['9211', '0.0000'],
        ['9222', '0.0000'],
        ['9311', '0.0000'],
        ['9399', '0.0000'],
        ['8398', '0.0000'],
        ['8661', '0.0000'],
      ];
      // A merchant the copy does not hold has the regular criteria (URE): the segment's rate for every amount.
      for (const [mcc, rate] of cases) {
        const merchantId = uuidv7();
        const mdrOf = (await mdr.ofMerchants([{ merchantId, categoryCode: mcc }])).get(merchantId)!;
        expect([mcc, mdrRateAt(mdrOf, 100_000, new Date()), mdrRateAt(mdrOf, 900_000, new Date())]).toEqual([mcc, rate, rate]);
      }
    });

    it('applies the rate of the merchant MCC to a success, rounded half up', async () => {
      const cases: [string | null, number, string, number][] = [
        ['5814', 100_000, '0.0070', 700],
        [null, 500, '0.0070', 4],
        ['8211', 250, '0.0060', 2],
        ['5542', 100_000, '0.0040', 400],
        ['9311', 100_000, '0.0000', 0],
      ];
      for (const [categoryCode, grossAmount, rate, fee] of cases) {
        const result = await record(event({ grossAmount, target: target({ categoryCode }) }));
        expect(await transactionOf(result.transactionId!)).toMatchObject({
          mdr_rate: rate,
          mdr_fee_amount: String(fee),
          net_amount_after_mdr: String(grossAmount - fee),
        });
      }
    });
  });

  describe('success events', () => {
    it('record a success transaction with everything the bank sent, and the event as received', async () => {
      const t = target({ terminalId: uuidv7() });
      const input = event({
        eventType: 'qris.payment.success',
        referenceNumber: 'REF-1',
        rrn: 'RRN-1',
        payerBankCode: 'BCA',
        payerBankName: 'Bank Central Asia',
        payerNameMasked: 'B*** S***',
        mdrFeeBank: 300,
        switchingFee: 150,
        platformFee: 50,
        grossAmount: 150_000,
        target: t,
        payload: { external_event_id: 'x', nested: { a: [1, 2] }, gross_amount: 150000 },
      });
      const result = await record(input);
      expect(result).toEqual({
        eventId: expect.any(String),
        status: 'success',
        flow: 'transaction.created',
        merchantId: t.merchantId,
        outletId: null,
        transactionId: expect.any(String),
        errorCode: null,
        applied: true,
      });
      expect(await transactionOf(result.transactionId!)).toMatchObject({
        merchant_id: t.merchantId,
        outlet_id: t.outletId,
        terminal_id: t.terminalId,
        bank_code: BANK,
        nmid: input.nmid,
        transaction_code: input.transactionCode,
        external_reference: 'REF-1',
        rrn: 'RRN-1',
        status: 'success',
        gross_amount: '150000',
        payer_bank_code: 'BCA',
        payer_bank_name: 'Bank Central Asia',
        payer_name_masked: 'B*** S***',
        payment_method: 'qris',
        currency: 'IDR',
        mdr_rate: '0.0070',
        mdr_fee_amount: '1050',
        net_amount_after_mdr: '148950',
        mdr_fee_bank: '300',
        switching_fee: '150',
        platform_fee: '50',
        refunded_amount: '0',
        settlement_status: 'unsettled',
        settled_at: null,
        transaction_at: '2026-11-22 03:00:00+00',
      });
      expect(await eventRowOf(result.eventId)).toMatchObject({
        bank_code: BANK,
        external_event_id: input.externalEventId,
        event_type: 'qris.payment.success',
        payload: input.payload,
        nmid: input.nmid,
        merchant_id: t.merchantId,
        outlet_id: t.outletId,
        terminal_id: t.terminalId,
        transaction_id: result.transactionId,
        status: 'success',
        flow: 'transaction.created',
        error_code: null,
        applied: true,
      });
      // Through the Transaction type the API serves.
      expect(await new TransactionService(fork()).findById(result.transactionId!)).toMatchObject({
        paymentMethod: 'qris',
        paymentChannel: 'Bank Central Asia',
        mdrRate: '0.0070',
        mdrFeeAmount: 1050,
        netAmountAfterMdr: 148_950,
        currency: 'IDR',
        settlementStatus: 'unsettled',
        refundedAmount: 0,
        outletId: t.outletId,
        terminalId: t.terminalId,
      });
    });

    it('default the fees the bank did not send to 0, and name the outlet only for a multi-outlet merchant', async () => {
      const t = target({ multiOutlet: true });
      const result = await record(event({ target: t }));
      expect(result.outletId).toBe(t.outletId);
      expect(await transactionOf(result.transactionId!)).toMatchObject({ mdr_fee_bank: '0', switching_fee: '0', platform_fee: '0' });
    });

    it('take the bank from the caller: the same external_event_id of another bank is another event', async () => {
      const input = event();
      const mine = await record(input, BANK);
      const theirs = await record({ ...input, transactionCode: `${input.transactionCode}-B` }, OTHER_BANK);
      expect(theirs.status).toBe('success');
      expect(theirs.eventId).not.toBe(mine.eventId);
      expect((await eventRowOf(theirs.eventId)).bank_code).toBe(OTHER_BANK);
      expect((await transactionOf(theirs.transactionId!)).bank_code).toBe(OTHER_BANK);
    });

    it('allow the same transaction_code at two banks, not twice at one (duplicate_transaction_code)', async () => {
      const first = await record(event({ transactionCode: 'TRX-SHARED' }));
      expect((await record(event({ transactionCode: 'TRX-SHARED' }), OTHER_BANK)).status).toBe('success');
      const t = target();
      const again = await record(event({ transactionCode: 'TRX-SHARED', target: t }));
      expect(again).toEqual({
        eventId: expect.any(String),
        status: 'rejected',
        flow: 'recorded_unapplied',
        merchantId: t.merchantId,
        outletId: null,
        transactionId: null,
        errorCode: 'duplicate_transaction_code',
        applied: true,
      });
      expect(again.eventId).not.toBe(first.eventId);
      expect(await eventRowOf(again.eventId)).toMatchObject({
        status: 'rejected',
        error_code: 'duplicate_transaction_code',
        transaction_id: null,
      });
      // Failed and cancelled events claim their code too.
      expect((await record(event({ eventType: 'transaction.failed', transactionCode: 'TRX-SHARED' }))).errorCode).toBe(
        'duplicate_transaction_code',
      );
      expect(Number((await sql(`select count(*) as n from "transaction".transactions where transaction_code = 'TRX-SHARED'`))[0].n)).toBe(
        2,
      );
    });
  });

  describe('failed and cancelled events', () => {
    it('record a failed or cancelled transaction without MDR', async () => {
      for (const [eventType, status, flow] of [
        ['transaction.failed', 'failed', 'transaction.failed_recorded'],
        ['qris.payment.failed', 'failed', 'transaction.failed_recorded'],
        ['transaction.cancelled', 'cancelled', 'transaction.cancelled_recorded'],
      ]) {
        const result = await record(event({ eventType, grossAmount: 20_000 }));
        expect(result).toMatchObject({ status: 'success', flow, errorCode: null });
        expect(await transactionOf(result.transactionId!)).toMatchObject({
          status,
          gross_amount: '20000',
          mdr_rate: '0.0000',
          mdr_fee_amount: '0',
          net_amount_after_mdr: '20000',
        });
      }
    });
  });

  describe('duplicates', () => {
    it('answer duplicate_skipped with the first event and its outcome, and store nothing more', async () => {
      const t = target({ multiOutlet: true });
      const input = event({ target: t });
      const first = await record(input);
      const again = await record({ ...input, grossAmount: 1, transactionCode: 'changed', target: target() });
      expect(again).toEqual({ ...first, status: 'duplicate_skipped' });
      expect(await countEvents('external_event_id = ?', [input.externalEventId])).toBe(1);
    });

    it('attempt a rejected event again: rejected while its NMID is unknown, applied once it resolves, then duplicate_skipped', async () => {
      const input = event({ target: null });
      const first = await record(input);
      expect(first).toMatchObject({ status: 'rejected', errorCode: 'unknown_nmid' });
      expect(await record(input)).toEqual(first);
      const t = target();
      const applied = await record({ ...input, target: t });
      expect(applied).toMatchObject({ eventId: first.eventId, status: 'success', flow: 'transaction.created', merchantId: t.merchantId });
      expect(await record({ ...input, target: t })).toEqual({ ...applied, status: 'duplicate_skipped' });
      expect(await countEvents('external_event_id = ?', [input.externalEventId])).toBe(1);
      expect(await eventRowOf(first.eventId)).toMatchObject({ status: 'success', error_code: null, merchant_id: t.merchantId });
    });

    it('make exactly one event and one transaction of 200 events each sent 5 times at once', async () => {
      const inputs = Array.from({ length: 200 }, () => event());
      // Every delivery on its own EntityManager fork (its own connection and database transaction), interleaved
      // within waves of 10 events × 5 copies (the pool's 5 s acquire timeout is not under test).
      const deliveries = inputs.flatMap((input, i) =>
        Array.from({ length: 5 }, (_, copy) => ({ input, order: Math.floor(i / 10) * 1000 + ((i * 7919 + copy * 104_729) % 1000) })),
      );
      deliveries.sort((a, b) => a.order - b.order);
      const results: Awaited<ReturnType<typeof record>>[] = [];
      for (let wave = 0; wave < deliveries.length; wave += 50) {
        results.push(...(await Promise.all(deliveries.slice(wave, wave + 50).map(({ input }) => record(input)))));
      }

      const ids = inputs.map((input) => input.externalEventId);
      expect(await countEvents('bank_code = ? and external_event_id = any(?)', [BANK, ids])).toBe(200);
      const [{ n: transactions }] = await sql<{ n: string }>(
        `select count(*) as n from "transaction".transactions where transaction_code = any(?)`,
        [inputs.map((input) => input.transactionCode)],
      );
      expect(Number(transactions)).toBe(200);
      expect(results.filter((r) => r.status === 'success')).toHaveLength(200);
      expect(results.filter((r) => r.status === 'duplicate_skipped')).toHaveLength(800);
      // All five answers of one event name the same event and transaction.
      const byEvent = new Map<string, Set<string>>();
      deliveries.forEach(({ input }, i) => {
        const seen = byEvent.get(input.externalEventId) ?? new Set<string>();
        seen.add(`${results[i].eventId}/${results[i].transactionId}`);
        byEvent.set(input.externalEventId, seen);
      });
      expect([...byEvent].filter(([, seen]) => seen.size !== 1)).toEqual([]);
    });

    it('let one of several concurrent events with the same transaction_code create the transaction', async () => {
      const t = target();
      const code = `TRX-RACE-${uuidv7()}`;
      const results = await Promise.all(Array.from({ length: 10 }, () => record(event({ transactionCode: code, target: t }))));
      expect(results.filter((r) => r.status === 'success')).toHaveLength(1);
      expect(results.filter((r) => r.errorCode === 'duplicate_transaction_code')).toHaveLength(9);
      expect(Number((await sql('select count(*) as n from "transaction".transactions where transaction_code = ?', [code]))[0].n)).toBe(1);
      expect(await countEvents('merchant_id = ?', [t.merchantId])).toBe(10);
    });
  });

  describe('rejections: stored, not applied', () => {
    it('unsupported_event_type: any other type, stored with its payload', async () => {
      const t = target();
      const input = event({ eventType: 'transaction.chargeback', payload: { anything: 'goes' }, target: t });
      const result = await record(input);
      expect(result).toEqual({
        eventId: expect.any(String),
        status: 'rejected',
        flow: 'recorded_unapplied',
        merchantId: t.merchantId,
        outletId: null,
        transactionId: null,
        errorCode: 'unsupported_event_type',
        applied: true,
      });
      expect(await eventRowOf(result.eventId)).toMatchObject({
        event_type: 'transaction.chargeback',
        payload: { anything: 'goes' },
        status: 'rejected',
      });
      expect(await sql('select id from "transaction".transactions where transaction_code = ?', [input.transactionCode])).toEqual([]);
    });

    it('unknown_nmid: the NMID did not resolve', async () => {
      for (const eventType of ['transaction.success', 'transaction.refunded', 'nmid.status_changed']) {
        const result = await record(event({ eventType, target: null, nmidNewStatus: 'suspended' }));
        expect(result).toMatchObject({
          status: 'rejected',
          flow: 'recorded_unapplied',
          errorCode: 'unknown_nmid',
          merchantId: null,
          applied: true,
        });
        expect((await eventRowOf(result.eventId)).merchant_id).toBeNull();
      }
    });

    it('merchant_not_active: a payment of a merchant that is not active creates no transaction', async () => {
      for (const merchantStatus of ['suspended', 'deleted', 'inactive', 'draft']) {
        for (const eventType of ['transaction.success', 'transaction.failed', 'transaction.cancelled']) {
          const input = event({ eventType, target: target({ merchantStatus }) });
          const result = await record(input);
          expect(result).toMatchObject({
            status: 'rejected',
            errorCode: 'merchant_not_active',
            merchantId: input.target!.merchantId,
            transactionId: null,
          });
          expect(await sql('select id from "transaction".transactions where transaction_code = ?', [input.transactionCode])).toEqual([]);
        }
      }
    });

    it('nmid_suspended: a success on a suspended NMID; a failed one is still recorded', async () => {
      const suspended = target({ nmidStatus: 'suspended' });
      expect(await record(event({ target: suspended }))).toMatchObject({
        status: 'rejected',
        errorCode: 'nmid_suspended',
        transactionId: null,
      });
      expect(await record(event({ eventType: 'qris.payment.success', target: suspended }))).toMatchObject({ errorCode: 'nmid_suspended' });
      expect(await record(event({ eventType: 'transaction.failed', target: suspended }))).toMatchObject({
        status: 'success',
        flow: 'transaction.failed_recorded',
      });
    });

    it('checks in order: type, NMID, merchant status, NMID status', async () => {
      const both = target({ merchantStatus: 'suspended', nmidStatus: 'suspended' });
      expect((await record(event({ eventType: 'bogus', target: null }))).errorCode).toBe('unsupported_event_type');
      expect((await record(event({ target: both }))).errorCode).toBe('merchant_not_active');
    });
  });

  describe('refunds and reversals', () => {
    /** A success of `gross` with references, on its own merchant. */
    async function original(gross = 100_000, over: Partial<PaymentEventInput> = {}) {
      const t = target();
      const input = event({ grossAmount: gross, referenceNumber: `REF-${uuidv7()}`, rrn: `RRN-${uuidv7()}`, target: t, ...over });
      const result = await record(input);
      expect(result.status).toBe('success');
      return { input, id: result.transactionId!, t };
    }
    const refund = (o: { input: PaymentEventInput; t: PaymentTargetInput }, over: Partial<PaymentEventInput> = {}) =>
      record(
        event({ eventType: 'transaction.refunded', transactionCode: o.input.transactionCode, grossAmount: null, target: o.t, ...over }),
      );

    it('refund part, then the rest by default; the status turns refunded when nothing is left', async () => {
      const o = await original(100_000);
      const part = await refund(o, { grossAmount: 30_000 });
      expect(part).toMatchObject({
        status: 'success',
        flow: 'transaction.refunded',
        transactionId: o.id,
        errorCode: null,
        merchantId: o.t.merchantId,
      });
      expect(await transactionOf(o.id)).toMatchObject({
        status: 'success',
        refunded_amount: '30000',
        mdr_fee_amount: '700',
        gross_amount: '100000',
      });
      const rest = await refund(o, { eventType: 'qris.payment.refunded' });
      expect(rest).toMatchObject({ status: 'success', flow: 'transaction.refunded', transactionId: o.id });
      expect(await transactionOf(o.id)).toMatchObject({ status: 'refunded', refunded_amount: '100000' });
      expect(await refund(o, { grossAmount: 1 })).toMatchObject({
        status: 'rejected',
        errorCode: 'refund_exceeds_original',
        transactionId: o.id,
      });
      expect(await refund(o)).toMatchObject({ status: 'rejected', errorCode: 'refund_exceeds_original' });
    });

    it('refund_exceeds_original: more than is left', async () => {
      const o = await original(50_000);
      expect(await refund(o, { grossAmount: 50_001 })).toMatchObject({
        status: 'rejected',
        flow: 'recorded_unapplied',
        errorCode: 'refund_exceeds_original',
      });
      await refund(o, { grossAmount: 40_000 });
      expect(await refund(o, { grossAmount: 10_001 })).toMatchObject({ errorCode: 'refund_exceeds_original' });
      expect(await refund(o, { grossAmount: 10_000 })).toMatchObject({ status: 'success' });
      expect(await transactionOf(o.id)).toMatchObject({ status: 'refunded', refunded_amount: '50000' });
    });

    it('find the original by transaction_code, else reference_number, else rrn: the first given that matches', async () => {
      const a = await original();
      const b = await original(100_000, { target: a.t });
      const c = await original(100_000, { target: a.t });
      const refundBy = (over: Partial<PaymentEventInput>) =>
        refund(a, { transactionCode: null, referenceNumber: null, rrn: null, grossAmount: 1, ...over });
      // All three given, each naming another transaction: the code wins.
      expect(
        (await refundBy({ transactionCode: a.input.transactionCode, referenceNumber: b.input.referenceNumber, rrn: c.input.rrn }))
          .transactionId,
      ).toBe(a.id);
      // An unknown code (e.g. the refund's own): the reference number.
      expect(
        (await refundBy({ transactionCode: 'REFUND-OWN-CODE', referenceNumber: b.input.referenceNumber, rrn: c.input.rrn })).transactionId,
      ).toBe(b.id);
      // Neither code nor reference matches: the rrn.
      expect((await refundBy({ transactionCode: 'nope', referenceNumber: 'nope', rrn: c.input.rrn })).transactionId).toBe(c.id);
      expect((await refundBy({ rrn: c.input.rrn })).transactionId).toBe(c.id);
      expect((await refundBy({ referenceNumber: b.input.referenceNumber })).transactionId).toBe(b.id);
      expect(await refundBy({ transactionCode: 'nope', referenceNumber: 'nope', rrn: 'nope' })).toMatchObject({
        status: 'rejected',
        errorCode: 'original_not_found',
        transactionId: null,
        merchantId: a.t.merchantId,
      });
    });

    it("original_not_found: another bank's or another merchant's transaction is not the original", async () => {
      const mine = await original();
      const otherBank = await record(
        event({ eventType: 'transaction.refunded', transactionCode: mine.input.transactionCode, target: mine.t }),
        OTHER_BANK,
      );
      expect(otherBank).toMatchObject({ status: 'rejected', errorCode: 'original_not_found' });
      const otherMerchant = await refund(mine, { target: target() });
      expect(otherMerchant).toMatchObject({ status: 'rejected', errorCode: 'original_not_found' });
      expect(await transactionOf(mine.id)).toMatchObject({ status: 'success', refunded_amount: '0' });
    });

    it('apply whatever the merchant or NMID status is now', async () => {
      const o = await original();
      const now = { ...o, t: { ...o.t, merchantStatus: 'suspended', nmidStatus: 'suspended' } };
      expect(await refund(now, { grossAmount: 10 })).toMatchObject({ status: 'success', flow: 'transaction.refunded' });
      expect(await refund(now, { eventType: 'transaction.reversed' })).toMatchObject({ status: 'success', flow: 'transaction.reversed' });
    });

    it('reverse a success (a partly refunded one too), and only once', async () => {
      const o = await original();
      await refund(o, { grossAmount: 5_000 });
      const reversal = await refund(o, { eventType: 'transaction.reversed', grossAmount: 1 });
      expect(reversal).toMatchObject({ status: 'success', flow: 'transaction.reversed', transactionId: o.id, errorCode: null });
      expect(await transactionOf(o.id)).toMatchObject({ status: 'reversed', refunded_amount: '5000', gross_amount: '100000' });
      expect(await refund(o, { eventType: 'transaction.reversed' })).toMatchObject({
        status: 'rejected',
        errorCode: 'original_not_eligible',
        transactionId: o.id,
      });
      expect(await refund(o, { grossAmount: 1 })).toMatchObject({ status: 'rejected', errorCode: 'original_not_eligible' });
    });

    it('original_not_eligible: a failed or cancelled original, or a reversal of a refunded one', async () => {
      for (const eventType of ['transaction.failed', 'transaction.cancelled']) {
        const o = await original(10_000, { eventType });
        expect(await refund(o)).toMatchObject({ errorCode: 'original_not_eligible', transactionId: o.id });
        expect(await refund(o, { eventType: 'transaction.reversed' })).toMatchObject({ errorCode: 'original_not_eligible' });
      }
      const refunded = await original(10_000);
      await refund(refunded);
      expect(await refund(refunded, { eventType: 'transaction.reversed' })).toMatchObject({ errorCode: 'original_not_eligible' });
      expect(await transactionOf(refunded.id)).toMatchObject({ status: 'refunded' });
    });

    it('add up concurrent refunds exactly: never more than the original', async () => {
      const o = await original(100_000);
      const results = await Promise.all(Array.from({ length: 15 }, () => refund(o, { grossAmount: 10_000 })));
      expect(results.filter((r) => r.status === 'success')).toHaveLength(10);
      expect(results.filter((r) => r.errorCode === 'refund_exceeds_original')).toHaveLength(5);
      expect(await transactionOf(o.id)).toMatchObject({ status: 'refunded', refunded_amount: '100000' });
    });
  });

  describe('nmid.status_changed', () => {
    const statusChange = (over: Partial<PaymentEventInput> = {}) =>
      event({ eventType: 'nmid.status_changed', transactionCode: null, grossAmount: null, nmidNewStatus: 'suspended', ...over });

    it('is stored unapplied until the adapter marks it applied; a replay tells whether it still has to be applied', async () => {
      const t = target({ multiOutlet: true, merchantStatus: 'suspended' });
      const input = statusChange({ target: t });
      const first = await record(input);
      expect(first).toEqual({
        eventId: expect.any(String),
        status: 'success',
        flow: 'nmid.status_changed',
        merchantId: t.merchantId,
        outletId: t.outletId,
        transactionId: null,
        errorCode: null,
        applied: false,
      });
      expect(await record(input)).toEqual({ ...first, status: 'duplicate_skipped' });

      const service = new PaymentEventService(fork());
      expect(await service.markApplied(first.eventId, BANK)).toEqual({ ...first, applied: true });
      const [{ applied_at: appliedAt }] = await sql('select applied_at from "transaction".payment_events where id = ?', [first.eventId]);
      expect(appliedAt).not.toBeNull();
      expect(await service.markApplied(first.eventId, BANK)).toEqual({ ...first, applied: true });
      expect((await eventRowOf(first.eventId)).applied_at).toEqual(appliedAt);
      expect(await record(input)).toEqual({ ...first, status: 'duplicate_skipped', applied: true });
    });

    it("markApplied: NOT_FOUND for another bank's event, an unknown or a malformed id; other events are already applied", async () => {
      const mine = await record(statusChange());
      const service = new PaymentEventService(fork());
      for (const [id, bank] of [
        [mine.eventId, OTHER_BANK],
        [uuidv7(), BANK],
        ['nope', BANK],
      ]) {
        expect(await errorOf(service.markApplied(id, bank))).toEqual({ code: 'NOT_FOUND', message: 'payment event not found' });
      }
      expect((await eventRowOf(mine.eventId)).applied).toBe(false);
      const success = await record(event());
      expect(await service.markApplied(success.eventId, BANK)).toEqual(success);
      expect((await eventRowOf(success.eventId)).applied_at).toBeNull();
    });
  });

  describe('recordBatch', () => {
    const warnings: object[] = [];
    const log = { warn: (obj: object) => warnings.push(obj) };
    const batch = (items: BatchItem[]) => new PaymentEventService(fork()).recordBatch(items, log);
    const mine = (inputs: PaymentEventInput[], bankCode = BANK): BatchItem[] => inputs.map((input) => ({ input, bankCode }));
    /** What record() gives each item in turn, an input error as the batch answers it. */
    const sequential = async (items: BatchItem[]): Promise<PaymentEventOutcome[]> => {
      const outcomes: PaymentEventOutcome[] = [];
      for (const { input, bankCode } of items) {
        try {
          outcomes.push({ result: await record(input, bankCode), inputError: null, unresolved: false });
        } catch (error) {
          const { message, extensions } = error as { message: string; extensions?: { code?: string } };
          if (extensions?.code !== 'BAD_USER_INPUT') throw error;
          outcomes.push({ result: null, inputError: message, unresolved: false });
        }
      }
      return outcomes;
    };
    const byIds = (column: string, values: unknown[]) =>
      sql(`select * from "transaction".transactions where ${column} = any(?) order by id`, [values]);
    beforeEach(() => {
      warnings.length = 0;
    });
    /**
     * Every fifth event of `pool` takes the code of the one before it; then 8 batches, each of about 60 % of the pool in
     * a shuffled order (a generator seeded with `seed`, so runs repeat).
     */
    const overlappingBatches = (pool: PaymentEventInput[], seed: number): BatchItem[][] => {
      for (let i = 4; i < pool.length; i += 5) pool[i].transactionCode = pool[i - 1].transactionCode;
      let random = seed;
      const next = () => (random = (random * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      return Array.from({ length: 8 }, () =>
        pool
          .filter(() => next() < 0.6)
          .map((input) => ({ input, order: next() }))
          .sort((x, y) => x.order - y.order)
          .map(({ input }) => ({ input, bankCode: BANK })),
      );
    };

    /**
     * Every kind of event, in an order where order matters (a refund of a success of the same batch, a refund
     * before the success it names, a replay and a taken code within the batch), on fresh merchants and codes.
     * Two originals are recorded first, one at a time.
     */
    async function mixedScenario() {
      const tag = uuidv7();
      const t = target();
      const other = target({ categoryCode: '8211' });
      const o1 = event({ grossAmount: 100_000, target: t });
      const o2 = event({ grossAmount: 50_000, target: t });
      for (const o of [o1, o2]) expect((await record(o)).status).toBe('success');
      const refundOf = (code: string | null | undefined, over: Partial<PaymentEventInput> = {}) =>
        event({ eventType: 'transaction.refunded', transactionCode: code, grossAmount: null, target: t, ...over });
      const a = event({ target: t, referenceNumber: `REF-A-${tag}` });
      const late = `TRX-LATE-${tag}`;
      const inputs: PaymentEventInput[] = [
        a, // 0 success, MCC 5814
        event({ target: other, transactionCode: `TRX-B-${tag}`, grossAmount: 250 }), // 1 success, MCC 8211 (1.5 → 2)
        event({ eventType: 'transaction.failed', grossAmount: 20_000, target: t }), // 2
        event({ eventType: 'transaction.cancelled', grossAmount: 30_000, target: t }), // 3
        refundOf(o1.transactionCode, { grossAmount: 30_000 }), // 4 part of an original recorded before
        refundOf('REFUND-OWN', { referenceNumber: a.referenceNumber }), // 5 all of item 0, by its reference: refunded
        refundOf(o2.transactionCode, { eventType: 'transaction.reversed' }), // 6
        event({ eventType: 'nmid.status_changed', transactionCode: null, grossAmount: null, nmidNewStatus: 'suspended', target: t }), // 7
        event({ eventType: 'transaction.chargeback', target: t }), // 8 unsupported_event_type
        event({ target: null }), // 9 unknown_nmid
        event({ target: target({ merchantStatus: 'suspended' }) }), // 10 merchant_not_active
        refundOf(late), // 11 its original is item 12, not there yet: original_not_found
        event({ target: t, transactionCode: late }), // 12
        event({ target: target({ nmidStatus: 'suspended' }) }), // 13 nmid_suspended
        refundOf(o1.transactionCode, { grossAmount: 70_001 }), // 14 refund_exceeds_original (70,000 left)
        { ...a, grossAmount: 1 }, // 15 a replay of item 0
        event({ target: other, transactionCode: `TRX-B-${tag}` }), // 16 item 1's code: duplicate_transaction_code
        refundOf(a.transactionCode, { eventType: 'transaction.reversed' }), // 17 item 0 is refunded by now: original_not_eligible
        event({ grossAmount: -1 }), // 18 input error
        event({ target: target({ categoryCode: null }), grossAmount: 500 }), // 19 no MCC: regular rate (3.5 → 4)
        refundOf(o1.transactionCode, { grossAmount: 70_000 }), // 20 the rest of the original: refunded
      ];
      return mine(inputs);
    }

    /** Outcomes with every id replaced by the order it first appears in, so two runs on fresh ids compare. */
    function shapeOf(outcomes: PaymentEventOutcome[], transactions: Record<string, any>[]) {
      const labels = new Map<string, string>();
      const label = (id: string | null) => {
        if (id == null) return null;
        if (!labels.has(id)) labels.set(id, `#${labels.size}`);
        return labels.get(id);
      };
      const results = outcomes.map(({ result, inputError }) => ({
        inputError,
        result: result && {
          ...result,
          eventId: label(result.eventId),
          merchantId: label(result.merchantId),
          outletId: label(result.outletId),
          transactionId: label(result.transactionId),
        },
      }));
      const rows = transactions
        .map((row) => ({
          id: label(row.id),
          ...Object.fromEntries(
            ['status', 'gross_amount', 'refunded_amount', 'mdr_rate', 'mdr_fee_amount', 'net_amount_after_mdr', 'bank_code'].map((c) => [
              c,
              row[c],
            ]),
          ),
        }))
        .sort((x, y) => String(x.id).localeCompare(String(y.id)));
      return { results, rows };
    }

    it('gives every kind of event, in order, exactly what record() gives one at a time', async () => {
      const items = await mixedScenario();
      const outcomes = await batch(items);
      expect(outcomes.map(({ result, inputError }) => inputError ?? `${result!.status} ${result!.flow} ${result!.errorCode}`)).toEqual([
        'success transaction.created null',
        'success transaction.created null',
        'success transaction.failed_recorded null',
        'success transaction.cancelled_recorded null',
        'success transaction.refunded null',
        'success transaction.refunded null',
        'success transaction.reversed null',
        'success nmid.status_changed null',
        'rejected recorded_unapplied unsupported_event_type',
        'rejected recorded_unapplied unknown_nmid',
        'rejected recorded_unapplied merchant_not_active',
        'rejected recorded_unapplied original_not_found',
        'success transaction.created null',
        'rejected recorded_unapplied nmid_suspended',
        'rejected recorded_unapplied refund_exceeds_original',
        'duplicate_skipped transaction.created null',
        'rejected recorded_unapplied duplicate_transaction_code',
        'rejected recorded_unapplied original_not_eligible',
        'grossAmount must not be negative',
        'success transaction.created null',
        'success transaction.refunded null',
      ]);
      expect(outcomes[15].result).toEqual({ ...outcomes[0].result, status: 'duplicate_skipped' });
      expect(outcomes[5].result!.transactionId).toBe(outcomes[0].result!.transactionId);
      expect(outcomes[7].result!.applied).toBe(false);
      expect(warnings).toEqual([]); // no fallback

      // A second, identical dataset one event at a time: the same answers and the same transactions.
      const again = await mixedScenario();
      const one = await sequential(again);
      const touched = (list: BatchItem[]) =>
        byIds('merchant_id', [...new Set(list.map(({ input }) => input.target?.merchantId).filter(Boolean))]);
      expect(shapeOf(outcomes, await touched(items))).toEqual(shapeOf(one, await touched(again)));
      const rows = await byIds('id', [
        outcomes[0].result!.transactionId,
        outcomes[1].result!.transactionId,
        outcomes[19].result!.transactionId,
      ]);
      expect(rows.map((r) => [r.mdr_rate, r.mdr_fee_amount, r.status])).toEqual(
        expect.arrayContaining([
          ['0.0070', '700', 'refunded'],
          ['0.0060', '2', 'success'],
          ['0.0070', '4', 'success'],
        ]),
      );
      expect(await countEvents('external_event_id = ?', [items[18].input.externalEventId])).toBe(0);
    });

    it('stores an event once when the batch repeats its id, and gives a taken code to the first event only', async () => {
      const t = target();
      const first = event({ target: t });
      const sameCode = event({ target: t, transactionCode: first.transactionCode, eventType: 'transaction.failed' });
      const outcomes = await batch(mine([first, { ...first, grossAmount: 5 }, sameCode]));
      expect(outcomes[1].result).toEqual({ ...outcomes[0].result, status: 'duplicate_skipped' });
      expect(outcomes[2].result).toMatchObject({ status: 'rejected', errorCode: 'duplicate_transaction_code', transactionId: null });
      expect(await countEvents('external_event_id = ?', [first.externalEventId])).toBe(1);
      expect(await eventRowOf(outcomes[2].result!.eventId)).toMatchObject({
        status: 'rejected',
        error_code: 'duplicate_transaction_code',
        transaction_id: null,
      });
      expect((await byIds('transaction_code', [first.transactionCode])).map((r) => [r.id, r.gross_amount])).toEqual([
        [outcomes[0].result!.transactionId, '100000'],
      ]);
    });

    it('gives a code to the first event the batch stores: a replay before it that uses the code loses it', async () => {
      const t = target();
      // Stored unapplied (no target yet): its code is not taken.
      const early = event({ target: null });
      expect(await record(early)).toMatchObject({ status: 'rejected', errorCode: 'unknown_nmid' });
      const fresh = event({ target: t, transactionCode: early.transactionCode });
      const outcomes = await batch(mine([{ ...early, target: t }, fresh]));
      expect(outcomes.map(({ result }) => [result!.status, result!.errorCode])).toEqual([
        ['rejected', 'duplicate_transaction_code'],
        ['success', null],
      ]);
      expect((await byIds('transaction_code', [early.transactionCode])).map((r) => r.id)).toEqual([outcomes[1].result!.transactionId]);
    });

    it('answers a replayed batch with the first answers (duplicate_skipped, or rejected again), and stores nothing more', async () => {
      // Without item 11 (a refund that came before its original): its replay applies it (the next test).
      const items = (await mixedScenario()).filter((_, i) => i !== 11);
      const first = await batch(items);
      const count = async () =>
        (
          await sql(
            'select (select count(*) from "transaction".payment_events) as e, (select count(*) from "transaction".transactions) as t',
          )
        )[0];
      const before = await count();
      const replay = await batch(items);
      // An applied event is a duplicate; a rejected one is attempted again and, nothing having changed, rejected again.
      expect(replay).toEqual(
        first.map(({ result, inputError }) => ({
          inputError,
          unresolved: false,
          result: result && (result.status === 'rejected' ? result : { ...result, status: 'duplicate_skipped' }),
        })),
      );
      expect(await count()).toEqual(before);
    });

    it('applies on replay a refund rejected because its original had not arrived yet', async () => {
      const items = await mixedScenario();
      const first = await batch(items);
      expect(first[11].result).toMatchObject({ status: 'rejected', errorCode: 'original_not_found' });
      const replay = await batch([items[11]]);
      expect(replay[0].result).toMatchObject({
        eventId: first[11].result!.eventId,
        status: 'success',
        flow: 'transaction.refunded',
        transactionId: first[12].result!.transactionId,
      });
      expect((await batch([items[11]]))[0].result).toEqual({ ...replay[0].result, status: 'duplicate_skipped' });
    });

    it('records each event as its own bank', async () => {
      const input = event();
      const outcomes = await batch([
        { input, bankCode: BANK },
        { input: { ...input, grossAmount: 7_000 }, bankCode: OTHER_BANK },
      ]);
      expect(outcomes.map(({ result }) => result!.status)).toEqual(['success', 'success']);
      for (const [i, bankCode] of [BANK, OTHER_BANK].entries())
        expect((await eventRowOf(outcomes[i].result!.eventId)).bank_code).toBe(bankCode);
      const transactions = await byIds('transaction_code', [input.transactionCode]);
      expect(transactions.map((r) => [r.bank_code, r.gross_amount]).sort()).toEqual([
        [OTHER_BANK, '7000'],
        [BANK, '100000'],
      ]);
    });

    it('answers an invalid event its input error and stores the others', async () => {
      const good = [event(), event()];
      const outcomes = await batch(mine([good[0], event({ transactionCode: null }), good[1]]));
      expect(outcomes[1]).toEqual({ result: null, inputError: 'transactionCode is required for transaction.success', unresolved: false });
      expect(outcomes.filter(({ result }) => result?.status === 'success')).toHaveLength(2);
      expect(await countEvents('external_event_id = any(?)', [good.map((g) => g.externalEventId)])).toBe(2);
      expect(await batch([])).toEqual([]);
      expect(await errorOf(batch(mine(Array.from({ length: 501 }, () => event()))))).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'at most 500 events per batch',
      });
    });

    it('stores every event once and every code at most once when 8 overlapping batches run at once', async () => {
      // 60 events on 6 merchants; every fifth shares its code with the one before; refunds of two originals, which
      // batches lock in different orders (a deadlock makes a batch fall back to one event at a time).
      const merchants = Array.from({ length: 6 }, () => target());
      const originals = [event({ grossAmount: 1_000_000, target: merchants[0] }), event({ grossAmount: 1_000_000, target: merchants[0] })];
      const originalIds: string[] = [];
      for (const o of originals) originalIds.push((await record(o)).transactionId!);
      const pool = Array.from({ length: 60 }, (_, i) =>
        i % 5 === 2
          ? event({
              eventType: 'transaction.refunded',
              transactionCode: originals[i % 2].transactionCode,
              grossAmount: 1_000,
              target: merchants[0],
            })
          : event({ target: merchants[i % 6] }),
      );
      const batches = overlappingBatches(pool, 42);
      const answers = await Promise.all(batches.map(batch));

      const ids = pool.map((input) => input.externalEventId);
      const rows = await sql(
        'select external_event_id, id from "transaction".payment_events where bank_code = ? and external_event_id = any(?)',
        [BANK, ids],
      );
      const sent = new Set(batches.flat().map(({ input }) => input.externalEventId));
      expect(rows).toHaveLength(sent.size);
      const eventIdOf = new Map(rows.map((r) => [r.external_event_id, r.id]));
      batches.forEach((items, b) =>
        items.forEach(({ input }, i) => expect(answers[b][i].result!.eventId).toBe(eventIdOf.get(input.externalEventId))),
      );
      // Each event applied at most once: one success and duplicates after it, or rejected every time (a rejected
      // event is attempted again by every replay, and nothing here would make it apply).
      const statusesOf = new Map<string, string[]>();
      batches.forEach((items, b) =>
        items.forEach(({ input }, i) =>
          statusesOf.set(input.externalEventId, [...(statusesOf.get(input.externalEventId) ?? []), answers[b][i].result!.status]),
        ),
      );
      const inconsistent = [...statusesOf].filter(([, statuses]) =>
        statuses.filter((s) => s === 'success').length === 1 ? statuses.includes('rejected') : statuses.some((s) => s !== 'rejected'),
      );
      expect(inconsistent).toEqual([]);
      const firsts = answers.flat().filter(({ result }) => result!.status === 'success');
      const codes = await sql(
        'select transaction_code, count(*)::int as n from "transaction".transactions where transaction_code = any(?) group by 1',
        [pool.map((input) => input.transactionCode)],
      );
      expect(codes.filter((r) => r.n !== 1)).toEqual([]);
      // The refunds add up exactly on each original.
      for (const id of originalIds) {
        const refunds = firsts.filter(({ result }) => result!.flow === 'transaction.refunded' && result!.transactionId === id);
        expect(await transactionOf(id)).toMatchObject({ refunded_amount: String(refunds.length * 1_000) });
      }
    });

    describe('a batch without refunds, reversals or bills (one statement, docs/decisions/0028-payment-event-and-settlement-intake.md)', () => {
      const feedOf = (transactionIds: unknown[]) =>
        sql<{ id: string; transaction_id: string; kind: string; amount: string }>(
          'select id::text, transaction_id::text, kind, amount::text from "transaction".payment_feed where transaction_id = any(?) order by id',
          [transactionIds],
        );
      const pushesOf = (transactionIds: unknown[]) =>
        sql<{ n: number }>(
          `select count(*)::int as n from graphile_worker._private_jobs where payload->>'transaction_id' = any(?::text[])`,
          [transactionIds],
        );

      it('appends one feed row and one push job per transaction it creates: none for a taken code, a failure, a rejection or a replay', async () => {
        const t = target({ terminalId: uuidv7() });
        const paid = event({ target: t, grossAmount: 25_000 });
        const sameCode = event({ target: t, transactionCode: paid.transactionCode });
        const items = mine([paid, { ...paid }, sameCode, event({ eventType: 'transaction.failed', target: t }), event({ target: null })]);
        const outcomes = await batch(items);
        expect(outcomes.map(({ result }) => `${result!.status} ${result!.errorCode}`)).toEqual([
          'success null',
          'duplicate_skipped null',
          'rejected duplicate_transaction_code',
          'success null',
          'rejected unknown_nmid',
        ]);
        const transactionIds = outcomes.map(({ result }) => result!.transactionId).filter((id) => id != null);
        expect(await feedOf(transactionIds)).toEqual([
          { id: expect.any(String), transaction_id: outcomes[0].result!.transactionId, kind: 'transaction.success', amount: '25000' },
        ]);
        expect(await pushesOf(transactionIds)).toEqual([{ n: 1 }]);
        // Delivered again, the whole batch is a replay: nothing more is stored, appended or enqueued.
        expect((await batch(items)).map(({ result }) => result!.status)).toEqual([
          'duplicate_skipped',
          'duplicate_skipped',
          'rejected',
          'duplicate_skipped',
          'rejected',
        ]);
        expect(await feedOf(transactionIds)).toHaveLength(1);
        expect(await pushesOf(transactionIds)).toEqual([{ n: 1 }]);
      });

      it('waits for an append still open elsewhere, so feed ids stay in commit order', async () => {
        // A push job first, so the queue knows its task before the open transaction (else that row alone would make us wait).
        await batch(mine([event()]));
        const em = fork();
        const open = await em.getKnex().transaction();
        const earlier = event();
        const other = await new PaymentFeedRepository(em, open)
          .append([
            {
              kind: 'transaction.success',
              merchant_id: earlier.target!.merchantId,
              outlet_id: earlier.target!.outletId,
              terminal_id: null,
              transaction_id: uuidv7(),
              transaction_code: earlier.transactionCode!,
              reference_number: null,
              bank_code: BANK,
              nmid: earlier.nmid,
              amount: 1,
              transaction_at: new Date(),
              qris_payment_id: null,
              bill_number: null,
              sales_order_id: null,
            },
          ])
          .then(async () => (await open.raw('select max(id) as id from "transaction".payment_feed')).rows[0].id as string);
        let done = false;
        const later = batch(mine([event(), event()])).then((outcomes) => ((done = true), outcomes));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const waited = !done;
        await open.commit();
        expect(waited).toBe(true);
        const outcomes = await later;
        const rows = await feedOf(outcomes.map(({ result }) => result!.transactionId));
        expect(rows).toHaveLength(2);
        for (const row of rows) expect(BigInt(row.id)).toBeGreaterThan(BigInt(other));
      });

      it('stores every event and code once, with one feed row per transaction, when 8 overlapping batches run at once', async () => {
        const merchants = Array.from({ length: 6 }, () => target());
        const pool = Array.from({ length: 60 }, (_, i) => event({ target: merchants[i % 6] }));
        const batches = overlappingBatches(pool, 7);
        const answers = (await Promise.all(batches.map(batch))).flat();
        const sent = new Set(batches.flat().map(({ input }) => input.externalEventId));
        expect(await countEvents('bank_code = ? and external_event_id = any(?)', [BANK, [...sent]])).toBe(sent.size);
        const created = answers.filter(({ result }) => result!.status === 'success').map(({ result }) => result!.transactionId);
        expect(new Set(created).size).toBe(created.length);
        const codes = await sql<{ n: number }>(
          'select count(*)::int as n from "transaction".transactions where transaction_code = any(?) group by transaction_code',
          [pool.map((input) => input.transactionCode)],
        );
        expect(codes.filter(({ n }) => n !== 1)).toEqual([]);
        expect((await feedOf(created)).map((row) => row.transaction_id).sort()).toEqual([...created].sort());
        expect(warnings).toEqual([]);
      });
    });

    it('records the events one by one when the batch transaction fails: the others are stored, the refused one answers its input error', async () => {
      const good = [event(), event({ eventType: 'transaction.failed' })];
      // PostgreSQL cannot store \u0000 in jsonb, which this service does not look for (the adapter and the graph refuse it).
      const poison = event({ payload: { note: 'nul \u0000 byte' } });
      const outcomes = await batch(mine([good[0], poison, good[1]]));
      expect(outcomes.map(({ result, inputError }) => [result?.status ?? null, inputError])).toEqual([
        ['success', null],
        [null, 'the database cannot store this event'],
        ['success', null],
      ]);
      expect(warnings).toEqual([{ error_class: 'DatabaseError', sqlstate: '22P05', events: 3 }]);
      expect(await countEvents('external_event_id = any(?)', [good.map((g) => g.externalEventId)])).toBe(2);
      expect(await countEvents('external_event_id = ?', [poison.externalEventId])).toBe(0);
      const replay = await batch(mine(good));
      expect(replay.map(({ result }) => [result!.status, result!.flow])).toEqual([
        ['duplicate_skipped', 'transaction.created'],
        ['duplicate_skipped', 'transaction.failed_recorded'],
      ]);
    });
  });

  describe('input the adapter validates', () => {
    it('is refused with BAD_USER_INPUT and nothing is stored', async () => {
      const cases: [Partial<PaymentEventInput>, string][] = [
        [{ externalEventId: '' }, 'externalEventId must be 1 to 128 characters'],
        [{ externalEventId: 'x'.repeat(129) }, 'externalEventId must be 1 to 128 characters'],
        [{ transactionCode: null }, 'transactionCode is required for transaction.success'],
        [{ eventType: 'transaction.failed', grossAmount: null }, 'grossAmount is required for transaction.failed'],
        [{ grossAmount: -1 }, 'grossAmount must not be negative'],
        [{ platformFee: -5 }, 'platformFee must not be negative'],
        [
          { eventType: 'transaction.refunded', transactionCode: null },
          'transaction.refunded needs transactionCode, referenceNumber or rrn of the original',
        ],
        [{ eventType: 'transaction.refunded', grossAmount: 0 }, 'grossAmount of a refund must be positive'],
        [{ eventType: 'nmid.status_changed', nmidNewStatus: 'blocked' }, 'nmidNewStatus must be active or suspended'],
        [{ target: target({ merchantId: 'nope' }) }, 'target.merchantId must be a UUID'],
        [
          { target: target({ merchantStatus: 'pending' }) },
          'target.merchantStatus must be one of draft, inactive, active, suspended, deleted',
        ],
        [{ target: target({ nmidStatus: 'blocked' }) }, 'target.nmidStatus must be active or suspended'],
      ];
      for (const [over, message] of cases) {
        const input = event(over);
        expect(await errorOf(record(input))).toEqual({ code: 'BAD_USER_INPUT', message });
        expect(await countEvents('external_event_id = ?', [input.externalEventId])).toBe(0);
      }
    });
  });
});
