import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { PRINCIPAL_HEADER, type Principal, signPrincipal } from '@lib/auth/principal';
import { type Config, loadConfig } from '@lib/config/config';
import { createSubgraphApp } from '@lib/federation/subgraph-definition';
import { type TestDatabase, adminQuery, cloneTemplateDatabase } from '@test/support/test-database';
import { transactionSubgraph } from '@subgraphs/transaction/src/app';

/**
 * Scoring end to end through the subgraph (resolver → service SQL → scoring.ts) on rows inserted with explicit
 * transaction_at / settled_at. Every expected value is worked out by hand in the comments (docs/scoring.md).
 *
 * asOf = 2026-11-15T05:00:00Z = 2026-11-15 12:00 WIB, so:
 *   D0 = 2026-11-15; M0 = 2026-11; 12-month window W = 2025-11 … 2026-10; last month 2026-10, previous 2026-09.
 *   cur30 = D0−30 … D0−1 = 2026-10-16 … 2026-11-14;  prev30 = D0−60 … D0−31 = 2026-09-16 … 2026-10-15.
 *   cur90 = D0−90 … D0−1 = 2026-08-17 … 2026-11-14;  prev90 = D0−180 … D0−91 = 2026-05-19 … 2026-08-16.
 * A transaction at 03:00Z is 10:00 WIB the same date; "+1d" settles it 24 h later (10:00 WIB on D+1: on time).
 */
const AS_OF = '2026-11-15T05:00:00Z';
const PARTNER: Extract<Principal, { kind: 'partner' }> = {
  kind: 'partner',
  partnerId: 'p-1',
  credentialId: 'c-1',
  scopes: ['scoring.read'],
  contract: 'A',
};
const OPERATOR: Principal = { kind: 'operator', operatorId: 'op-1', roles: [] };

const FIELDS_A = `merchantId asOf windowStartAt windowEndAt averageMonthlyGrossAmount averageMonthlyTransactionCount avgTicketSize
  growth30d growth90d settlementConsistencyScore transactionStabilityScore monthsInWindow`;
const FIELDS_B = `merchantId averageMonthlyGrossAmount averageMonthlyTransactionCount avgTicketSize growth30d
  settlementConsistencyScore transactionStabilityScore monthsSampled`;
const SCORING = `query ($reps: [_Any!]!, $asOf: DateTime) {
  _entities(representations: $reps) { ... on Merchant { scoringA(asOf: $asOf) { ${FIELDS_A} } scoringB(asOf: $asOf) { ${FIELDS_B} } } }
}`;

interface Row {
  at: string;
  gross: number;
  status?: string;
  refunded?: number;
  /** ISO instant, '+1d' (24 h after `at`), or absent (unsettled). */
  settled?: string;
}

describe('merchant scoring (real PostgreSQL, through GraphQL)', () => {
  let database: TestDatabase;
  let config: Config;
  let app: FastifyInstance;

  async function graphql(principal: Principal, query: string, variables: Record<string, unknown>) {
    const response = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: await signPrincipal(principal, config.secrets.principalSecret) },
      payload: JSON.stringify({ query, variables }),
    });
    return response.json<{ data?: any; errors?: { message: string; extensions?: { code?: string } }[] }>();
  }
  /** The partner principal as the partner adapter asserts it after its scope check: with the merchant in merchantIds. */
  async function score(merchantId: string, asOf: string | null = AS_OF, principal: Principal = { ...PARTNER, merchantIds: [merchantId] }) {
    const { data, errors } = await graphql(principal, SCORING, { reps: [{ __typename: 'Merchant', id: merchantId }], asOf });
    expect(errors).toBeUndefined();
    return data._entities[0] as { scoringA: Record<string, unknown>; scoringB: Record<string, unknown> };
  }

  /** A merchant with these transactions. */
  async function merchant(rows: Row[]): Promise<string> {
    const merchantId = uuidv7();
    for (const row of rows) await merchantRow(merchantId, row);
    return merchantId;
  }
  async function merchantRow(merchantId: string, row: Row): Promise<void> {
    const settledAt = row.settled === '+1d' ? new Date(Date.parse(row.at) + 86_400_000).toISOString() : (row.settled ?? null);
    await adminQuery(
      database.adminUrl,
      `insert into "transaction".transactions (id, merchant_id, bank_code, transaction_code, status, gross_amount, refunded_amount,
         net_amount_after_mdr, settlement_status, settled_at, transaction_at, created_at, updated_at)
       values ($1, $2, 'BSCORE', $3, $4, $5, $6, $5, $7, $8, $9, now(), now())`,
      [
        uuidv7(),
        merchantId,
        `TRX-${uuidv7()}`,
        row.status ?? 'success',
        row.gross,
        row.refunded ?? 0,
        settledAt ? 'settled' : 'unsettled',
        settledAt,
        row.at,
      ],
    );
  }

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.adminUrl });
    app = await createSubgraphApp(transactionSubgraph, config);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('14 months of history: averages over 12, Jakarta month and day boundaries, refunds, late settlement', async () => {
    const monthly = (month: string, gross: number): Row => ({ at: `${month}-10T03:00:00Z`, gross, settled: '+1d' });
    const id = await merchant([
      // Before the window (first counted month 2025-09, so all 12 window months count): 500 000 each.
      monthly('2025-09', 500_000),
      monthly('2025-10', 500_000),
      // 2025-11 … 2026-04: 80 000 each; 2026-05 … 2026-09: 120 000 each.
      ...['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04'].map((m) => monthly(m, 80_000)),
      ...['2026-05', '2026-06', '2026-07', '2026-08', '2026-09'].map((m) => monthly(m, 120_000)),
      // 2026-10, two transactions, 120 000 together:
      //  - 2026-09-30T17:30Z = 2026-10-01 00:30 WIB (October in Jakarta, September in UTC), gross 100 000 partly refunded
      //    30 000 → counts 70 000. Deadline: end of 2026-10-02 WIB = 2026-10-02T17:00Z (exclusive); settled 16:59:59Z → on time.
      { at: '2026-09-30T17:30:00Z', gross: 100_000, refunded: 30_000, settled: '2026-10-02T16:59:59Z' },
      //  - 2026-10-20 10:00 WIB, 50 000. Deadline 2026-10-21T17:00Z; settled exactly then (2026-10-22 00:00 WIB) → late.
      { at: '2026-10-20T03:00:00Z', gross: 50_000, settled: '2026-10-21T17:00:00Z' },
      // Current month: D0−1 (in cur30 and cur90, in no month window) and D0 itself (in nothing).
      { at: '2026-11-14T03:00:00Z', gross: 30_000 },
      { at: '2026-11-15T01:00:00Z', gross: 999_000 },
      // Not counted: failed, fully refunded, reversed, pending.
      { at: '2026-06-12T03:00:00Z', gross: 1_000_000, status: 'failed' },
      { at: '2026-06-12T04:00:00Z', gross: 200_000, status: 'refunded', refunded: 200_000 },
      { at: '2026-06-12T05:00:00Z', gross: 300_000, status: 'reversed' },
      { at: '2026-06-12T06:00:00Z', gross: 400_000, status: 'pending' },
    ]);
    const { scoringA, scoringB } = await score(id);
    expect(scoringA).toEqual({
      merchantId: id,
      asOf: '2026-11-15T05:00:00.000Z',
      windowStartAt: '2025-10-31T17:00:00.000Z', // 2025-11-01 00:00 WIB
      windowEndAt: '2026-10-31T17:00:00.000Z', // 2026-11-01 00:00 WIB
      // W gross = 6 × 80 000 + 5 × 120 000 + (70 000 + 50 000) = 480 000 + 600 000 + 120 000 = 1 200 000; / 12 = 100 000.
      averageMonthlyGrossAmount: 100_000,
      // W count = 6 + 5 + 2 = 13; 13 / 12 = 1.083 → 1.
      averageMonthlyTransactionCount: 1,
      // 1 200 000 / 13 = 92 307.69 → 92 308.
      avgTicketSize: 92_308,
      // cur30 = 50 000 (10-20) + 30 000 (11-14) = 80 000; prev30 = 70 000 (10-01); (80 000 − 70 000) / 70 000 = 0.142857 → 0.1429.
      growth30d: 0.1429,
      // cur90 = 120 000 (09-10) + 70 000 + 50 000 + 30 000 = 270 000; prev90 = 06-10 + 07-10 + 08-10 = 360 000 (05-10 is before 05-19);
      // (270 000 − 360 000) / 360 000 = −0.25.
      growth90d: -0.25,
      // 13 judged, 12 on time (all but 10-20): 12 / 13 = 0.923077 → 0.9231.
      settlementConsistencyScore: 0.9231,
      // Monthly series 80 000 ×6, 120 000 ×6: μ = 100 000, σ = 20 000, CV = 0.2 → 1 − 0.2 = 0.8.
      transactionStabilityScore: 0.8,
      monthsInWindow: 12,
    });
    expect(scoringB).toEqual({
      merchantId: id,
      // Last month 2026-10: 70 000 + 50 000 = 120 000 in 2 transactions, ticket 60 000.
      averageMonthlyGrossAmount: 120_000,
      averageMonthlyTransactionCount: 2,
      avgTicketSize: 60_000,
      // (120 000 − 120 000 (2026-09)) / 120 000 × 100 = 0.0.
      growth30d: 0,
      // 0.9231: ≥ 0.90 and < 0.98 → 85.
      settlementConsistencyScore: 85,
      // 0.8 exactly at the threshold → 90.
      transactionStabilityScore: 90,
      monthsSampled: 12,
    });
  });

  it('keeps the daily rollups exact: a refund, a late settlement report and a back-dated transaction on rolled-up days count at once', async () => {
    const id = await merchant([
      { at: '2026-10-10T03:00:00Z', gross: 100_000, settled: '+1d' },
      { at: '2026-10-12T03:00:00Z', gross: 50_000 },
    ]);
    const rollups = () =>
      adminQuery<{ day: string; count: number; amount: string; on_time: number }>(
        database.adminUrl,
        `select to_char(day, 'YYYY-MM-DD') as day, count, amount::text as amount, on_time from "transaction".merchant_daily_rollups
        where merchant_id = $1 and count > 0 order by day`,
        [id],
      );
    const first = (await score(id)).scoringB;
    expect(first).toMatchObject({ averageMonthlyGrossAmount: 150_000, averageMonthlyTransactionCount: 2, settlementConsistencyScore: 55 }); // 1 of 2 on time
    // Filled up to asOf − 3 days (2026-11-12), one row per day of the window, zero days included.
    expect(await rollups()).toEqual([
      { day: '2026-10-10', count: 1, amount: '100000', on_time: 1 },
      { day: '2026-10-12', count: 1, amount: '50000', on_time: 0 },
    ]);
    const [{ n }] = await adminQuery<{ n: number }>(
      database.adminUrl,
      `select count(*)::int as n from "transaction".merchant_daily_rollups where merchant_id = $1`,
      [id],
    );
    expect(n).toBe(377); // 2025-11-01 … 2026-11-12

    await adminQuery(
      database.adminUrl,
      `update "transaction".transactions set refunded_amount = 40000 where merchant_id = $1 and gross_amount = 100000`,
      [id],
    );
    await adminQuery(
      database.adminUrl,
      `update "transaction".transactions set settled_at = '2026-10-12T05:00:00Z', settlement_status = 'settled' where merchant_id = $1 and gross_amount = 50000`,
      [id],
    );
    await merchantRow(id, { at: '2026-10-11T03:00:00Z', gross: 20_000, settled: '+1d' });
    expect(await rollups()).toEqual([]); // the three days were invalidated
    const second = (await score(id)).scoringB;
    // 60 000 + 20 000 + 50 000 = 130 000 in 3 transactions, all on time (50 000 reported settled within its deadline).
    expect(second).toMatchObject({ averageMonthlyGrossAmount: 130_000, averageMonthlyTransactionCount: 3, settlementConsistencyScore: 95 });
    expect((await rollups()).map((r) => r.day)).toEqual(['2026-10-10', '2026-10-11', '2026-10-12']);
  });

  it('2 months of history: averages over those 2 months only; no stability; growth against an empty window is null', async () => {
    const id = await merchant([
      { at: '2026-09-05T03:00:00Z', gross: 40_000, settled: '+1d' },
      { at: '2026-09-25T03:00:00Z', gross: 60_000, settled: '+1d' },
      { at: '2026-10-03T03:00:00Z', gross: 50_000, settled: '+1d' },
      { at: '2026-10-12T03:00:00Z', gross: 50_000, settled: '+1d' },
      { at: '2026-10-28T03:00:00Z', gross: 25_000, settled: '+1d' },
    ]);
    const { scoringA, scoringB } = await score(id);
    expect(scoringA).toMatchObject({
      // First counted month 2026-09 → months 2026-09, 2026-10: n = 2. Gross 100 000 + 125 000 = 225 000; / 2 = 112 500.
      averageMonthlyGrossAmount: 112_500,
      // 5 / 2 = 2.5 → 3 (half up).
      averageMonthlyTransactionCount: 3,
      // 225 000 / 5 = 45 000.
      avgTicketSize: 45_000,
      // cur30 = 25 000 (10-28); prev30 = 60 000 (09-25) + 50 000 (10-03) + 50 000 (10-12) = 160 000;
      // (25 000 − 160 000) / 160 000 = −0.84375 → −0.8438 (half away from zero).
      growth30d: -0.8438,
      // cur90 = 225 000, prev90 (2026-05-19 … 08-16) = 0 → null.
      growth90d: null,
      // 5 / 5 on time.
      settlementConsistencyScore: 1,
      // n = 2 < 3 → null.
      transactionStabilityScore: null,
      monthsInWindow: 2,
    });
    expect(scoringB).toMatchObject({
      // 2026-10: 50 000 + 50 000 + 25 000 = 125 000, 3 transactions; 125 000 / 3 = 41 666.67 → 41 667.
      averageMonthlyGrossAmount: 125_000,
      averageMonthlyTransactionCount: 3,
      avgTicketSize: 41_667,
      // (125 000 − 100 000) / 100 000 × 100 = 25.0.
      growth30d: 25,
      settlementConsistencyScore: 95, // 1 ≥ 0.98
      transactionStabilityScore: null,
      monthsSampled: 2,
    });
  });

  it('no counted history (only failed and pending): zeros and nulls', async () => {
    const id = await merchant([
      { at: '2026-10-05T03:00:00Z', gross: 50_000, status: 'failed' },
      { at: '2026-10-06T03:00:00Z', gross: 50_000, status: 'pending' },
    ]);
    const { scoringA, scoringB } = await score(id);
    expect(scoringA).toMatchObject({
      averageMonthlyGrossAmount: 0,
      averageMonthlyTransactionCount: 0,
      avgTicketSize: 0,
      growth30d: null,
      growth90d: null,
      settlementConsistencyScore: null,
      transactionStabilityScore: null,
      monthsInWindow: 0,
    });
    expect(scoringB).toEqual({
      merchantId: id,
      averageMonthlyGrossAmount: 0,
      averageMonthlyTransactionCount: 0,
      avgTicketSize: 0,
      growth30d: null,
      settlementConsistencyScore: null,
      transactionStabilityScore: null,
      monthsSampled: 0,
    });
    // An id that is not a UUID scores as an unknown merchant (no error, nothing to read).
    expect((await score('not-a-uuid')).scoringB).toMatchObject({ merchantId: 'not-a-uuid', monthsSampled: 0, growth30d: null });
  });

  it('empty last month: B is 0 with −100 % growth; A counts the empty month as 0', async () => {
    const id = await merchant([
      { at: '2026-06-10T03:00:00Z', gross: 100_000, settled: '+1d' }, // on time
      { at: '2026-07-10T03:00:00Z', gross: 100_000, settled: '+1d' }, // on time
      { at: '2026-08-10T03:00:00Z', gross: 100_000, settled: '2026-08-13T03:00:00Z' }, // D+3 → late
      { at: '2026-09-20T03:00:00Z', gross: 100_000 }, // never settled; deadline 2026-09-21T17:00Z passed → late
      { at: '2026-11-03T03:00:00Z', gross: 10_000 }, // current month
    ]);
    const { scoringA, scoringB } = await score(id);
    expect(scoringA).toMatchObject({
      // n = 2026-06 … 2026-10 = 5 months; 400 000 / 5 = 80 000; 4 / 5 = 0.8 → 1; 400 000 / 4 = 100 000.
      averageMonthlyGrossAmount: 80_000,
      averageMonthlyTransactionCount: 1,
      avgTicketSize: 100_000,
      // cur30 = 10 000 (11-03); prev30 = 100 000 (09-20); (10 000 − 100 000) / 100 000 = −0.9.
      growth30d: -0.9,
      // cur90 = 100 000 (09-20) + 10 000 = 110 000; prev90 = 06-10 + 07-10 + 08-10 = 300 000; −190 000 / 300 000 = −0.6333.
      growth90d: -0.6333,
      // 2 on time of 4 judged = 0.5.
      settlementConsistencyScore: 0.5,
      // 100 000 ×4, 0: μ = 80 000, σ² = (4 × 20 000² + 80 000²) / 5 = 1.6e9, σ = 40 000, CV = 0.5 → 0.5.
      transactionStabilityScore: 0.5,
      monthsInWindow: 5,
    });
    expect(scoringB).toMatchObject({
      averageMonthlyGrossAmount: 0,
      averageMonthlyTransactionCount: 0,
      avgTicketSize: 0,
      // (0 − 100 000) / 100 000 × 100 = −100.0.
      growth30d: -100,
      settlementConsistencyScore: 55, // 0.5 exactly at the threshold
      transactionStabilityScore: 60, // 0.5: ≥ 0.40, < 0.60
      monthsSampled: 4, // June … September; October is empty
    });
  });

  it('judges settlement as of asOf: a deadline still open is left out unless already settled on time', async () => {
    // asOf 2026-11-01T05:00Z = 2026-11-01 12:00 WIB; W = 2025-11 … 2026-10. Deadline of day D = 00:00 WIB of D+2.
    const id = await merchant([
      // 10-15: settled 10-16 → on time.
      { at: '2026-10-15T03:00:00Z', gross: 10_000, settled: '+1d' },
      // 10-29: deadline 2026-10-30T17:00Z ≤ asOf; settled 2026-11-02T00:00Z, after asOf → late (not settled as of asOf, deadline gone).
      { at: '2026-10-29T03:00:00Z', gross: 10_000, settled: '2026-11-02T00:00:00Z' },
      // 10-30: deadline 2026-10-31T17:00Z ≤ asOf, unsettled → late.
      { at: '2026-10-30T03:00:00Z', gross: 10_000 },
      // 10-31 10:00 WIB: deadline 2026-11-01T17:00Z > asOf, unsettled → not judged.
      { at: '2026-10-31T03:00:00Z', gross: 10_000 },
      // 10-31 23:00 WIB: settled 2026-11-01T02:00Z (≤ asOf, before its deadline) → on time.
      { at: '2026-10-31T16:00:00Z', gross: 10_000, settled: '2026-11-01T02:00:00Z' },
    ]);
    // On time 2 (10-15, 10-31 23:00) of judged 4 → 0.5 → bucket 55.
    const early = await score(id, '2026-11-01T05:00:00Z');
    expect([early.scoringA.settlementConsistencyScore, early.scoringB.settlementConsistencyScore]).toEqual([0.5, 55]);
    // asOf 2026-12-01T05:00Z: every deadline has passed; 10-29 settled at 2026-11-02 07:00 WIB, after 2026-10-31 00:00 WIB → late.
    // On time 2 of 5 → 0.4 → < 0.50 → 35.
    const later = await score(id, '2026-12-01T05:00:00Z');
    expect([later.scoringA.settlementConsistencyScore, later.scoringB.settlementConsistencyScore]).toEqual([0.4, 35]);
  });

  it('defaults asOf to now and is open to service, internal, operator and partner principals only', async () => {
    const id = await merchant([{ at: '2026-10-05T03:00:00Z', gross: 10_000 }]);
    const before = Date.now();
    const now = await score(id, null, OPERATOR);
    expect(Date.parse(now.scoringA.asOf as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(now.scoringA.asOf as string)).toBeLessThanOrEqual(Date.now());
    for (const principal of [
      { kind: 'service', service: 't' },
      { kind: 'internal', service: 't' },
    ] as Principal[]) {
      expect((await score(id, AS_OF, principal)).scoringB).toMatchObject({ averageMonthlyGrossAmount: 10_000 });
    }
    // A partner principal only with the merchant in merchantIds (the partner adapter's verified scope).
    const partners = [
      PARTNER,
      { ...PARTNER, merchantIds: [] },
      { ...PARTNER, merchantIds: ['019a0000-0000-7000-8000-000000000000'] },
    ] as Principal[];
    for (const principal of [
      { kind: 'user', userId: 'u-1' },
      { kind: 'bank', bankId: 'b', bankCode: 'BSCORE', tier: 1 },
      ...partners,
    ] as Principal[]) {
      const { errors } = await graphql(principal, SCORING, { reps: [{ __typename: 'Merchant', id }], asOf: AS_OF });
      expect(errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
  });
});
