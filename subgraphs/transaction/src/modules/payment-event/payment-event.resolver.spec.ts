import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { PRINCIPAL_HEADER, type Principal, signPrincipal } from '@lib/auth/principal';
import { type Config, loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createSubgraphApp } from '@lib/federation/subgraph-definition';
import { type TestDatabase, adminQuery, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';

interface GraphQLResponse {
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[];
}

const BANK_A: Principal = { kind: 'bank', bankId: 'bank-a', bankCode: 'BANKA', tier: 2 };
const BANK_B: Principal = { kind: 'bank', bankId: 'bank-b', bankCode: 'BANKB', tier: 2 };
const SERVICE: Principal = { kind: 'service', service: 'test' };

const RECORD = `mutation ($input: PaymentEventInput!) {
  recordPaymentEvent(input: $input) { eventId status flow merchantId outletId transactionId errorCode applied }
}`;
const RECORD_MANY = `mutation ($inputs: [BankPaymentEventInput!]!) {
  recordPaymentEvents(inputs: $inputs) { inputError result { eventId status flow merchantId outletId transactionId errorCode applied } }
}`;
const MARK_APPLIED = `mutation ($eventId: ID!) { markPaymentEventApplied(eventId: $eventId) { eventId status flow applied } }`;
const SETTLE = `mutation ($input: SettlementInput!) {
  recordSettlement(input: $input) { settlementRef status settlementId matchedCount matchedAmount grossAmount discrepancyAmount reconciled errorCode }
}`;
const TRANSACTION = `query ($id: ID!) {
  transaction(id: $id) {
    transactionCode status grossAmount outletId terminalId externalReference rrn paymentMethod paymentChannel mdrRate mdrFeeAmount
    netAmountAfterMdr mdrFeeBank switchingFee platformFee currency settledAt settlementStatus refundedAmount merchant { id }
  }
}`;

describe('transaction subgraph: bank intake through GraphQL', () => {
  let database: TestDatabase;
  let config: Config;
  let app: FastifyInstance;

  async function graphql(principal: Principal, query: string, variables: Record<string, unknown>): Promise<GraphQLResponse> {
    const response = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: await signPrincipal(principal, config.secrets.principalSecret) },
      payload: JSON.stringify({ query, variables }),
    });
    return response.json<GraphQLResponse>();
  }
  const sql = (text: string, params: unknown[] = []) => adminQuery<Record<string, any>>(database.adminUrl, text, params);

  const target = {
    merchantId: DEMO.merchantId,
    merchantStatus: 'active',
    categoryCode: '8211',
    outletId: DEMO.outlets[1].id,
    multiOutlet: true,
    nmidStatus: 'active',
  };
  const eventInput = (externalEventId: string) => ({
    externalEventId,
    eventType: 'transaction.success',
    payload: { external_event_id: externalEventId, event_type: 'transaction.success', gross_amount: 250000, bank_code: 'FORGED' },
    nmid: DEMO.outlets[1].nmid,
    transactionCode: `TRX-${externalEventId}`,
    referenceNumber: 'REF-GQL',
    transactionAt: '2026-11-22T16:59:59Z',
    grossAmount: 250_000,
    payerBankName: 'Bank Lain',
    target,
  });

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.adminUrl });
    app = await createSubgraphApp(transactionSubgraph, config);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('records an event under the bank of the signed principal, never of the body', async () => {
    const externalEventId = `gql-${uuidv7()}`;
    const { data, errors } = await graphql(BANK_A, RECORD, { input: eventInput(externalEventId) });
    expect(errors).toBeUndefined();
    expect(data.recordPaymentEvent).toEqual({
      eventId: expect.any(String),
      status: 'success',
      flow: 'transaction.created',
      merchantId: DEMO.merchantId,
      outletId: DEMO.outlets[1].id,
      transactionId: expect.any(String),
      errorCode: null,
      applied: true,
    });
    const { eventId, transactionId } = data.recordPaymentEvent;
    expect(await sql('select bank_code, payload from "transaction".payment_events where id = $1', [eventId])).toEqual([
      { bank_code: 'BANKA', payload: eventInput(externalEventId).payload },
    ]);
    expect(await sql('select bank_code from "transaction".transactions where id = $1', [transactionId])).toEqual([{ bank_code: 'BANKA' }]);

    // The input has no bank at all: naming one is a validation error, nothing is stored.
    const forged = await graphql(BANK_A, RECORD, { input: { ...eventInput(`gql-${uuidv7()}`), bankCode: 'BANKB' } });
    expect(forged.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');

    // The same external_event_id from another bank is that bank's own (new) event, not a duplicate of A's.
    const replayA = await graphql(BANK_A, RECORD, { input: eventInput(externalEventId) });
    expect(replayA.data.recordPaymentEvent).toEqual({ ...data.recordPaymentEvent, status: 'duplicate_skipped' });
    const fromB = await graphql(BANK_B, RECORD, { input: { ...eventInput(externalEventId), transactionCode: `TRX-B-${externalEventId}` } });
    expect(fromB.data.recordPaymentEvent).toMatchObject({ status: 'success' });
    expect(fromB.data.recordPaymentEvent.eventId).not.toBe(eventId);
  });

  it('serves the new Transaction fields', async () => {
    const { data } = await graphql(BANK_A, RECORD, { input: eventInput(`gql-${uuidv7()}`) });
    const { data: read } = await graphql(SERVICE, TRANSACTION, { id: data.recordPaymentEvent.transactionId });
    expect(read.transaction).toEqual({
      transactionCode: expect.stringMatching(/^TRX-gql-/),
      status: 'success',
      grossAmount: 250_000,
      outletId: DEMO.outlets[1].id,
      terminalId: null,
      externalReference: 'REF-GQL',
      rrn: null,
      paymentMethod: 'qris',
      paymentChannel: 'Bank Lain',
      mdrRate: '0.0060',
      mdrFeeAmount: 1_500,
      netAmountAfterMdr: 248_500,
      mdrFeeBank: 0,
      switchingFee: 0,
      platformFee: 0,
      currency: 'IDR',
      settledAt: null,
      settlementStatus: 'unsettled',
      refundedAmount: 0,
      merchant: { id: DEMO.merchantId },
    });
  });

  it("marks only the calling bank's own events applied", async () => {
    const input = {
      ...eventInput(`gql-${uuidv7()}`),
      eventType: 'nmid.status_changed',
      transactionCode: null,
      grossAmount: null,
      nmidNewStatus: 'suspended',
    };
    const { data } = await graphql(BANK_A, RECORD, { input });
    expect(data.recordPaymentEvent).toMatchObject({ status: 'success', flow: 'nmid.status_changed', applied: false });
    const eventId = data.recordPaymentEvent.eventId;
    const byB = await graphql(BANK_B, MARK_APPLIED, { eventId });
    expect(byB.errors?.[0]).toMatchObject({ message: 'payment event not found', extensions: { code: 'NOT_FOUND' } });
    expect((await graphql(BANK_A, MARK_APPLIED, { eventId })).data.markPaymentEventApplied).toEqual({
      eventId,
      status: 'success',
      flow: 'nmid.status_changed',
      applied: true,
    });
  });

  it("settles the calling bank's transactions only", async () => {
    const settlement = (settlementId: string) => ({
      externalEventId: `stl-${settlementId}`,
      settlementId,
      nmid: DEMO.outlets[1].nmid,
      grossAmount: 500_000,
      mdrTotal: 3_000,
      netAmount: 497_000,
      settlementDate: '2026-11-22',
      completedAt: '2026-11-23T01:00:00Z',
      payload: { settlement_id: settlementId },
      outletId: DEMO.outlets[1].id,
      merchantId: DEMO.merchantId,
    });
    // Bank A has two transactions of 250,000 at 2026-11-22 23:59:59 WIB on this NMID (the tests above); bank B one.
    const { data, errors } = await graphql(BANK_A, SETTLE, { input: settlement('STL-GQL-1') });
    expect(errors).toBeUndefined();
    expect(data.recordSettlement).toEqual({
      settlementRef: expect.any(String),
      status: 'success',
      settlementId: 'STL-GQL-1',
      matchedCount: 2,
      matchedAmount: 500_000,
      grossAmount: 500_000,
      discrepancyAmount: 0,
      reconciled: true,
      errorCode: null,
    });
    expect(await sql(`select bank_code from "transaction".settlements where id = $1`, [data.recordSettlement.settlementRef])).toEqual([
      { bank_code: 'BANKA' },
    ]);
    expect(
      await sql(`select count(*)::int as n from "transaction".transactions where bank_code = 'BANKB' and settlement_status = 'unsettled'`),
    ).toEqual([{ n: 1 }]);
  });

  it('is for banks only', async () => {
    const response = await graphql(SERVICE, RECORD, { input: eventInput(`gql-${uuidv7()}`) });
    expect(response.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const settle = await graphql({ kind: 'operator', operatorId: 'op', roles: ['admin'] }, MARK_APPLIED, { eventId: uuidv7() });
    expect(settle.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  describe("recordPaymentEvents (the adapter's micro-batch)", () => {
    const BANK_C = { kind: 'bank', bankId: 'bank-c', bankCode: 'BANKC', tier: 2 } as const;
    const BANK_D = { kind: 'bank', bankId: 'bank-d', bankCode: 'BANKD', tier: 1 } as const;
    const BANKS: Principal = { kind: 'banks', banks: [BANK_C, BANK_D] };
    const item = (bankCode: string, over: Record<string, unknown> = {}) => ({ ...eventInput(`batch-${uuidv7()}`), bankCode, ...over });
    const storedOf = (ids: string[]) =>
      sql('select external_event_id, bank_code from "transaction".payment_events where external_event_id = any($1) order by bank_code', [
        ids,
      ]);

    it('records the events of several banks, each as its own bank, with an input error in place', async () => {
      const inputs = [item('BANKC'), item('BANKD'), item('BANKC', { grossAmount: -1 })];
      const { data, errors } = await graphql(BANKS, RECORD_MANY, { inputs });
      expect(errors).toBeUndefined();
      expect(data.recordPaymentEvents).toEqual([
        {
          inputError: null,
          result: expect.objectContaining({ status: 'success', flow: 'transaction.created', merchantId: DEMO.merchantId }),
        },
        { inputError: null, result: expect.objectContaining({ status: 'success', flow: 'transaction.created' }) },
        { inputError: 'grossAmount must not be negative', result: null },
      ]);
      expect(await storedOf(inputs.map((i) => i.externalEventId))).toEqual([
        { external_event_id: inputs[0].externalEventId, bank_code: 'BANKC' },
        { external_event_id: inputs[1].externalEventId, bank_code: 'BANKD' },
      ]);
      const transactions = data.recordPaymentEvents.slice(0, 2).map((o: { result: { transactionId: string } }) => o.result.transactionId);
      expect(await sql('select bank_code from "transaction".transactions where id = any($1) order by bank_code', [transactions])).toEqual([
        { bank_code: 'BANKC' },
        { bank_code: 'BANKD' },
      ]);

      // A replay through the single mutation, as the adapter's fallback, answers the batch's event.
      const { bankCode: _bank, ...single } = inputs[1];
      const replay = await graphql(BANK_D, RECORD, { input: single });
      expect(replay.data.recordPaymentEvent).toEqual({ ...data.recordPaymentEvents[1].result, status: 'duplicate_skipped' });
    });

    it('refuses the whole batch when one event names a bank the caller does not act for', async () => {
      const inputs = [item('BANKC'), item('BANKA')];
      const response = await graphql(BANKS, RECORD_MANY, { inputs });
      expect(response.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(response.data).toBeNull();
      // A single bank may batch its own events only.
      expect((await graphql(BANK_A, RECORD_MANY, { inputs })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(await storedOf(inputs.map((i) => i.externalEventId))).toEqual([]);
      const own = await graphql(BANK_A, RECORD_MANY, { inputs: [inputs[1]] });
      expect(own.data.recordPaymentEvents[0].result).toMatchObject({ status: 'success' });
      expect((await graphql(SERVICE, RECORD_MANY, { inputs: [] })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    });

    it('answers an empty batch with nothing and refuses more than 500 events', async () => {
      expect((await graphql(BANKS, RECORD_MANY, { inputs: [] })).data).toEqual({ recordPaymentEvents: [] });
      const inputs = Array.from({ length: 501 }, () => item('BANKC'));
      const response = await graphql(BANKS, RECORD_MANY, { inputs });
      expect(response.errors?.[0]).toMatchObject({ message: 'at most 500 events per batch', extensions: { code: 'BAD_USER_INPUT' } });
      expect(await storedOf(inputs.map((i) => i.externalEventId))).toEqual([]);
    });
  });
});
