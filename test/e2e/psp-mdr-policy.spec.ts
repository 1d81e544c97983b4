import { createBank, ensureMonthlyPartitions, onboardMerchant } from '@scripts/database-tasks';
import { bankSignedRequest } from '../support/bank-events';
import { eventually } from '../support/eventually';
import { gql, memberHeaders, operatorHeaders } from '../support/graphql';
import { ops } from '../support/ops-cli';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

interface Key {
  keyId: string;
  secret: string;
}

/**
 * The MDR as a dated policy and the fee guard (docs/decisions/0240-mdr-policy.md), through the
 * bank API, GraphQL, the app route and the operator CLI. Its own stack: its payments of 2024 need months that
 * psp-intake.spec.ts archives in the shared one.
 */
describe('MDR policy and fee guard', () => {
  let stack: TestStack;
  let key: Key;
  let opsEnv: NodeJS.ProcessEnv;
  const merchants: Record<'micro' | 'small' | 'school' | 'uncopied', { merchant_id: string; nmid: string }> = {} as never;
  const NMIDS = { micro: 'ID1026112240000', small: 'ID1026112240001', school: 'ID1026112240002', uncopied: 'ID1026112240003' };

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    adminQuery(stack.database.adminUrl, text, params) as Promise<T[]>;
  const post = (path: string, body: Record<string, unknown>) =>
    stack.rest.inject({ method: 'POST', url: path, ...bankSignedRequest(key, path, body) });
  const pay = (nmid: string, id: string, gross: number, at: string, overrides: Record<string, unknown> = {}) =>
    post('/psp/v1/events', {
      external_event_id: id,
      event_type: 'transaction.success',
      nmid,
      gross_amount: gross,
      transaction_code: `TRX-${id}`,
      transaction_at: at,
      status: 'success',
      ...overrides,
    });
  const recorded = async (id: string) =>
    (
      await sql<{ mdr_rate: string; mdr_fee_amount: string; net_amount_after_mdr: string }>(
        `select mdr_rate::text, mdr_fee_amount, net_amount_after_mdr from "transaction".transactions where transaction_code = $1`,
        [`TRX-${id}`],
      )
    ).map((r) => [r.mdr_rate, Number(r.mdr_fee_amount), Number(r.net_amount_after_mdr)]);

  beforeAll(async () => {
    stack = await startTestStack({}, { own: true });
    opsEnv = { ...process.env, NODE_ENV: 'test', DATABASE_URL: stack.database.adminUrl };
    const bank = await createBank(stack.config, stack.database.adminUrl, { code: 'BANKMDR', name: 'Bank MDR', tier: 'external' });
    key = { keyId: bank.event_key_id, secret: bank.event_secret };
    const onboard = async (name: string, nmid: string, categoryCode: string, businessScaleCode: string) => {
      const m = await onboardMerchant(stack.config, stack.database.adminUrl, {
        name,
        bankCode: 'BANKMDR',
        nmids: [nmid],
        outlets: 1,
        categoryCode,
        businessScaleCode,
      });
      return { merchant_id: m.merchant_id, nmid };
    };
    merchants.micro = await onboard('Warung Mikro', NMIDS.micro, '5814', 'micro');
    merchants.small = await onboard('Toko Kecil', NMIDS.small, '5814', 'small');
    merchants.school = await onboard('Sekolah Mikro', NMIDS.school, '8211', 'micro');
    merchants.uncopied = await onboard('Warung Baru', NMIDS.uncopied, '5814', 'micro');
    await ensureMonthlyPartitions(stack.config, stack.database.adminUrl, { monthsAhead: 1, from: new Date('2024-11-01T00:00:00+07:00') });
    // Intake reads the copy of payment targets once the owners' jobs ran (one lookup per batch, no query per event).
    await eventually('the payment targets copy did not catch up', async () => {
      const [{ n }] = await sql<{ n: string }>(
        `select count(*) as n from "transaction".payment_targets t join "transaction".payment_target_merchants m using (merchant_id)
          where t.nmid = any($1) and m.business_scale_code is not null`,
        [Object.values(NMIDS)],
      );
      return n === '4' ? true : undefined;
    });
  });
  afterAll(() => stack?.close());

  it("rates a micro merchant's payments by the band in force at their time: 0 % up to Rp100.000, then up to Rp500.000 from 1 December 2024", async () => {
    const cases: [string, number, string, [string, number, number]][] = [
      ['m-nov-100k', 100_000, '2024-11-15T10:00:00+07:00', ['0.0000', 0, 100_000]],
      ['m-nov-300k', 300_000, '2024-11-15T10:00:00+07:00', ['0.0030', 900, 299_100]],
      ['m-nov-600k', 600_000, '2024-11-15T10:00:00+07:00', ['0.0030', 1_800, 598_200]],
      ['m-last-300k', 300_000, '2024-11-30T23:59:59+07:00', ['0.0030', 900, 299_100]],
      ['m-first-300k', 300_000, '2024-12-01T00:00:00+07:00', ['0.0000', 0, 300_000]],
      ['m-dec-100k', 100_000, '2024-12-15T10:00:00+07:00', ['0.0000', 0, 100_000]],
      ['m-dec-500k', 500_000, '2024-12-15T10:00:00+07:00', ['0.0000', 0, 500_000]],
      ['m-dec-600k', 600_000, '2024-12-15T10:00:00+07:00', ['0.0030', 1_800, 598_200]],
    ];
    // Concurrent: the adapter records them in micro-batches.
    const answers = await Promise.all(cases.map(([id, gross, at]) => pay(NMIDS.micro, id, gross, at)));
    expect(answers.map((a) => a.statusCode)).toEqual(cases.map(() => 200));
    for (const [id, , , expected] of cases) expect([id, await recorded(id)]).toEqual([id, [expected]]);
  });

  it('rates a small merchant at 0.7 % whatever the amount, and a micro school at the education segment’s 0.6 %', async () => {
    await Promise.all([
      pay(NMIDS.small, 's-dec-100k', 100_000, '2024-12-15T10:00:00+07:00'),
      pay(NMIDS.small, 's-dec-600k', 600_000, '2024-12-15T10:00:00+07:00'),
      pay(NMIDS.school, 'e-dec-100k', 100_000, '2024-12-15T10:00:00+07:00'),
    ]);
    expect(await recorded('s-dec-100k')).toEqual([['0.0070', 700, 99_300]]);
    expect(await recorded('s-dec-600k')).toEqual([['0.0070', 4_200, 595_800]]);
    expect(await recorded('e-dec-100k')).toEqual([['0.0060', 600, 99_400]]);
  });

  it("rates by the merchant subgraph's business scale a payment neither copy holds yet (the owners' path)", async () => {
    // As if its merchant's jobs had not run yet: neither the transaction subgraph's copy nor the outlet subgraph's bank
    // view holds it, so the merchant subgraph resolves it, with its business scale.
    await sql(`delete from "transaction".payment_target_merchants where merchant_id = $1`, [merchants.uncopied.merchant_id]);
    await sql(`delete from outlet.merchant_profiles where merchant_id = $1`, [merchants.uncopied.merchant_id]);
    const answer = await pay(NMIDS.uncopied, 'u-dec-300k', 300_000, '2024-12-15T10:00:00+07:00');
    expect(answer.json()).toMatchObject({ status: 'success', merchant_id: merchants.uncopied.merchant_id });
    expect(await recorded('u-dec-300k')).toEqual([['0.0000', 0, 300_000]]);
  });

  it('answers a replay duplicate_skipped and keeps one row with its first fee', async () => {
    const again = await pay(NMIDS.micro, 'm-nov-300k', 300_000, '2024-11-15T10:00:00+07:00');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'duplicate_skipped' });
    expect(await recorded('m-nov-300k')).toEqual([['0.0030', 900, 299_100]]);
  });

  it('lists the policy’s rules with their dates (GraphQL)', async () => {
    const answer = await gql(
      stack,
      `{ mdrPolicy { segment criteria amountFrom amountTo effectiveFrom effectiveTo rate } }`,
      {},
      await operatorHeaders(stack, ['support']),
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.mdrPolicy).toContainEqual({
      segment: 'regular',
      criteria: 'UMI',
      amountFrom: 0,
      amountTo: 500_000,
      effectiveFrom: '2024-11-30T17:00:00.000Z',
      effectiveTo: null,
      rate: '0.0000',
    });
    // No gap and no overlap: at every rule's start and at every band's ends, each segment has exactly one rule for
    // every criteria (null) and at most one of each criteria of its own.
    type Rule = {
      segment: string;
      criteria: string | null;
      amountFrom: number;
      amountTo: number | null;
      effectiveFrom: string;
      effectiveTo: string | null;
    };
    const rules = answer.data.mdrPolicy as Rule[];
    const times = [...new Set(rules.map((r) => Date.parse(r.effectiveFrom)))];
    const amounts = [...new Set(rules.flatMap((r) => [r.amountFrom, r.amountTo ?? 10 ** 12]))];
    const problems: string[] = [];
    for (const segment of new Set(rules.map((r) => r.segment)))
      for (const criteria of new Set(rules.filter((r) => r.segment === segment).map((r) => r.criteria)))
        for (const time of times)
          for (const amount of amounts) {
            const holding = rules.filter(
              (r) =>
                r.segment === segment &&
                r.criteria === criteria &&
                Date.parse(r.effectiveFrom) <= time &&
                (r.effectiveTo === null || time < Date.parse(r.effectiveTo)) &&
                r.amountFrom <= amount &&
                (r.amountTo === null || amount <= r.amountTo),
            ).length;
            if (holding > 1 || (criteria === null && holding !== 1))
              problems.push(`${segment} ${criteria} ${new Date(time).toISOString()} ${amount}: ${holding}`);
          }
    expect(problems).toEqual([]);
  });

  describe('fee guard', () => {
    const month = `mdrOverchargeMonths(from: "2024-11", to: "2024-12") {
      month transactionCount overchargedCount bankFeeAmount expectedFeeAmount overchargeAmount settlementsOvercharged settlementOverchargeAmount }`;

    beforeAll(async () => {
      // The bank charges 1.000 on a payment the policy charges 700 (overcharge 300), and less than the policy on another.
      await pay(NMIDS.small, 's-dec-over', 100_000, '2024-12-16T10:00:00+07:00', { mdr_fee_bank: 1_000 });
      await pay(NMIDS.small, 's-dec-under', 100_000, '2024-12-16T11:00:00+07:00', { mdr_fee_bank: 500 });
      // The day's settlement: the whole gross, MDR total 2.000 where the policy's fees are 1.400.
      const settlement = await post('/psp/v1/settlements', {
        external_event_id: 'stl-mdr-1',
        settlement_id: 'STL-MDR-1',
        nmid: NMIDS.small,
        bank_code: 'BANKMDR',
        gross_amount: 200_000,
        mdr_total: 2_000,
        net_amount: 198_000,
        settlement_date: '2024-12-16',
        completed_at: '2024-12-17T08:00:00+07:00',
      });
      expect(settlement.json()).toMatchObject({ status: 'success', matched_count: 2, reconciled: true });
    });

    it('shows each transaction’s overcharge, and the month’s totals to the owner (GraphQL)', async () => {
      const owner = await memberHeaders(stack, merchants.small.merchant_id, 'owner');
      const answer = await gql(
        stack,
        `{ myMerchant { ${month}
            mdrSettlementOvercharges(month: "2024-12") { settlementId settlementDate mdrTotal expectedMdrTotal overchargeAmount }
            merchantTransactions(from: "2024-12-16T00:00:00+07:00", to: "2024-12-16T23:59:59+07:00") { transactionCode mdrFeeBank mdrFeeAmount mdrOvercharge } } }`,
        {},
        owner.headers,
      );
      expect(answer.errors).toBeUndefined();
      const m = answer.data.myMerchant;
      expect(m.mdrOverchargeMonths).toEqual([
        {
          month: '2024-11',
          transactionCount: 0,
          overchargedCount: 0,
          bankFeeAmount: 0,
          expectedFeeAmount: 0,
          overchargeAmount: 0,
          settlementsOvercharged: 0,
          settlementOverchargeAmount: 0,
        },
        {
          month: '2024-12',
          transactionCount: 4,
          overchargedCount: 1,
          bankFeeAmount: 1_500,
          expectedFeeAmount: 6_300,
          overchargeAmount: 300,
          settlementsOvercharged: 1,
          settlementOverchargeAmount: 600,
        },
      ]);
      expect(m.mdrSettlementOvercharges).toEqual([
        { settlementId: 'STL-MDR-1', settlementDate: '2024-12-16', mdrTotal: 2_000, expectedMdrTotal: 1_400, overchargeAmount: 600 },
      ]);
      expect(m.merchantTransactions).toEqual(
        expect.arrayContaining([
          { transactionCode: 'TRX-s-dec-over', mdrFeeBank: 1_000, mdrFeeAmount: 700, mdrOvercharge: 300 },
          { transactionCode: 'TRX-s-dec-under', mdrFeeBank: 500, mdrFeeAmount: 700, mdrOvercharge: 0 },
        ]),
      );
      // Not for a member below the owner.
      const viewer = await memberHeaders(stack, merchants.small.merchant_id, 'viewer');
      const refused = await gql(stack, `{ myMerchant { ${month} } }`, {}, viewer.headers);
      expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    });

    it('shows the owner’s months on GET /merchant/fee-overcharges, refuses other members (403) and a bad month (400)', async () => {
      const owner = await memberHeaders(stack, merchants.small.merchant_id, 'owner');
      const get = (query: string, headers: Record<string, string>) =>
        stack.rest.inject({ method: 'GET', url: `/merchant/fee-overcharges${query}`, headers });
      const res = await get('?from=2024-11&to=2024-12', owner.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        merchant_id: merchants.small.merchant_id,
        merchant_name: 'Toko Kecil',
        total_overcharge_amount: 300,
        months: [
          expect.objectContaining({ month: '2024-11', transaction_count: 0, overcharge_amount: 0 }),
          {
            month: '2024-12',
            transaction_count: 4,
            overcharged_count: 1,
            bank_fee_amount: 1_500,
            expected_fee_amount: 6_300,
            overcharge_amount: 300,
            settlements_overcharged: 1,
            settlement_overcharge_amount: 600,
          },
        ],
      });
      const viewer = await memberHeaders(stack, merchants.small.merchant_id, 'viewer');
      expect((await get('?from=2024-11&to=2024-12', viewer.headers)).json()).toMatchObject({ code: 'forbidden' });
      const bad = await get('?from=2024-13', owner.headers);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'bad_request' });
    });

    it('lists the overcharged merchants of a month to operators (GraphQL and ops fees:overcharges), and refuses a bad month', async () => {
      const answer = await gql(
        stack,
        `{ mdrOvercharges(month: "2024-12") { merchant { id name } month overchargedCount overchargeAmount settlementsOvercharged } }`,
        {},
        await operatorHeaders(stack, ['support']),
      );
      expect(answer.errors).toBeUndefined();
      expect(answer.data.mdrOvercharges).toEqual([
        {
          merchant: { id: merchants.small.merchant_id, name: 'Toko Kecil' },
          month: '2024-12',
          overchargedCount: 1,
          overchargeAmount: 300,
          settlementsOvercharged: 1,
        },
      ]);
      const cli = await ops(['fees:overcharges', '--month', '2024-12', '--merchant', NMIDS.small], opsEnv);
      expect(cli.code).toBe(0);
      expect(cli.stdout?.result).toMatchObject({
        month: '2024-12',
        overcharge_amount: 300,
        settlements: [{ settlement_id: 'STL-MDR-1', overcharge_amount: 600 }],
      });
      const bad = await gql(stack, `{ mdrOvercharges(month: "2024-13") { month } }`, {}, await operatorHeaders(stack, ['support']));
      expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('re-rating (ops fees:rerate)', () => {
    const fees = async () =>
      Object.fromEntries(
        (
          await sql<{ transaction_code: string; mdr_fee_amount: string }>(
            `select transaction_code, mdr_fee_amount from "transaction".transactions where merchant_id = $1`,
            [merchants.micro.merchant_id],
          )
        ).map((r) => [r.transaction_code, Number(r.mdr_fee_amount)]),
      );
    const rerate = (from: string, before: string, more: string[]) =>
      ops(['fees:rerate', '--merchant', NMIDS.micro, '--from', from, '--before', before, ...more], opsEnv);
    const audits = async () => sql(`select * from "transaction".mdr_rerates where merchant_id = $1`, [merchants.micro.merchant_id]);

    it('refuses a period that ends before it starts: nothing changes and nothing is audited', async () => {
      const before = await fees();
      const cli = await rerate('2024-12-10T00:00:00+07:00', '2024-12-01T00:00:00+07:00', ['--reason', 'x', '--by', 'ops']);
      expect(cli.code).toBe(1);
      expect(await fees()).toEqual(before);
      expect(await audits()).toEqual([]);
    });

    it("changes only the period asked, by the policy at each payment's time, and writes an audit row", async () => {
      const before = await fees();
      // The merchant's scale was found to be small all along in December 2024 (1 to 15 December, both payments of the 15th included).
      const cli = await rerate('2024-12-01T00:00:00+07:00', '2024-12-16T00:00:00+07:00', [
        '--criteria',
        'UKE',
        '--reason',
        'business scale corrected to small',
        '--by',
        'finance-ops',
      ]);
      expect(cli.code).toBe(0);
      expect(cli.stdout?.result).toMatchObject({
        criteria: 'UKE',
        transactions: 4,
        changed: 4,
        fee_before: 1_800,
        fee_after: 2_100 + 700 + 3_500 + 4_200,
        requested_by: 'finance-ops',
      });
      expect(await fees()).toEqual({
        ...before,
        'TRX-m-first-300k': 2_100,
        'TRX-m-dec-100k': 700,
        'TRX-m-dec-500k': 3_500,
        'TRX-m-dec-600k': 4_200,
      });
      expect(await recorded('m-dec-600k')).toEqual([['0.0070', 4_200, 595_800]]);
      expect(await audits()).toEqual([
        expect.objectContaining({
          criteria: 'UKE',
          reason: 'business scale corrected to small',
          requested_by: 'finance-ops',
          transactions: 4,
          changed: 4,
        }),
      ]);
      const answer = await gql(
        stack,
        `query($id: ID!) { merchant(id: $id) { mdrRerates { criteria reason requestedBy transactions changed feeBefore feeAfter periodFrom } } }`,
        { id: merchants.micro.merchant_id },
        await operatorHeaders(stack, ['support']),
      );
      expect(answer.data.merchant.mdrRerates).toEqual([
        {
          criteria: 'UKE',
          reason: 'business scale corrected to small',
          requestedBy: 'finance-ops',
          transactions: 4,
          changed: 4,
          feeBefore: 1_800,
          feeAfter: 10_500,
          periodFrom: '2024-11-30T17:00:00.000Z',
        },
      ]);
    });
  });
});
