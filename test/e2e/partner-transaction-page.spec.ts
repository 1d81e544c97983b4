import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { encodeActingPrincipal } from '@lib/auth/principal';
import { issueServiceToken } from '@lib/auth/service-token';
import type { PartnerTransactionFieldsFragment } from '@rest-adapters/generated/operations';
import { jakartaIso } from '@rest-adapters/partner/routes/jakarta-time';
import { createPartner, issuePartnerCredential, onboardMerchant } from '@scripts/database-tasks';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * docs/decisions/0018-transaction-lists-and-paging.md: the partner transaction routes read `merchantTransactionPage`
 * (one JSONObject per row) instead of `merchantTransactions` (a field per value). Their bodies must be what they were
 * when they read the typed field: here the page is compared with the typed field through the gateway, and the routes'
 * items with the typed field's values, field by field, as the mappers turned them into the contracts before. The
 * expected items are spelled out here rather than taken from mapper.ts, so that a change there cannot pass unseen.
 */
const BASE = '/api/partner/v1';
const FRAGMENT = readFileSync(
  path.join(__dirname, '../../rest-adapters/partner/routes/merchants/transactions/partner-transaction.fragment.graphql'),
  'utf8',
);
/** partner-api.md's status mapping, written out rather than taken from the adapter under test. */
const PARTNER_STATUS: Record<string, string> = {
  success: 'success',
  pending: 'pending',
  failed: 'failed',
  cancelled: 'failed',
  refunded: 'refunded',
  reversed: 'refunded',
};

/** A row of merchantTransactions as the partner routes' fragment selects it. */
type TypedRow = PartnerTransactionFieldsFragment;

describe('merchantTransactionPage and the partner transaction routes that read it', () => {
  let stack: TestStack;
  let url: string;
  let partnerId: string;
  let merchant: string;
  let outlet: string;
  let outsider: string;
  const tokens: Record<string, string> = {};

  const tx = async (at: string, status: string, gross: number, extra: Record<string, unknown> = {}) => {
    const id = randomUUID();
    const fee = status === 'failed' || status === 'cancelled' ? 0 : Math.round(gross * 0.007);
    const row = {
      id,
      merchant_id: merchant,
      outlet_id: outlet as string | null,
      transaction_code: `TP-${id.slice(0, 8)}`,
      status,
      gross_amount: gross,
      transaction_at: at,
      created_at: at,
      updated_at: at,
      external_reference: `EXT-${id.slice(0, 6)}`,
      payer_bank_name: 'Bank Central Asia',
      payment_method: 'qris',
      currency: 'IDR',
      mdr_rate: fee ? '0.0070' : '0',
      mdr_fee_amount: fee,
      net_amount_after_mdr: gross - fee,
      settlement_status: 'unsettled',
      settled_at: null as string | null,
      ...extra,
    };
    const columns = Object.keys(row);
    await adminQuery(
      url,
      `insert into "transaction".transactions (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
  };

  const issue = async (contract: 'A' | 'B') => {
    const key = await issuePartnerCredential(stack.config, url, {
      partnerCode: 'PPAGE',
      name: `page-${contract}`,
      contract,
      scopes: ['merchant.read', 'transaction.read'],
      mode: 'jwt',
      outletsEnabled: true,
    });
    const res = await stack.rest.inject({
      method: 'POST',
      url: `${BASE}/auth/token`,
      payload: { credential_key: key.credential_key, credential_secret: key.credential_secret },
    });
    expect(res.statusCode).toBe(200);
    return res.json().access_token as string;
  };
  const route = async (contract: 'A' | 'B', routePath: string) => {
    const res = await stack.rest.inject({
      method: 'GET',
      url: `${BASE}${routePath}`,
      headers: { authorization: `Bearer ${tokens[contract]}` },
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  /** An operation through the gateway as the partner adapter runs it: a partner principal holding `merchantIds`. */
  const asPartner = async (query: string, variables: Record<string, unknown>, merchantIds: string[]) => {
    const token = await issueServiceToken('partner-page-test', stack.config.secrets.serviceTokenSecret);
    const principal = {
      kind: 'partner' as const,
      partnerId,
      credentialId: randomUUID(),
      scopes: ['transaction.read'],
      contract: 'B' as const,
      merchantIds,
    };
    const res = await request(stack.gatewayUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-acting-principal': encodeActingPrincipal(principal),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.body.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
  };
  const ARGS = '$from: DateTime, $to: DateTime, $before: DateTime, $statuses: [String!], $outletId: ID, $limit: Int!';
  const PASS = 'from: $from, to: $to, before: $before, statuses: $statuses, outletId: $outletId, limit: $limit';
  /** The typed field and the page with the same arguments, in one operation. */
  const both = async (window: Record<string, unknown>): Promise<{ typed: TypedRow[]; page: unknown[] }> => {
    const res = await asPartner(
      `query Both($merchantId: ID!, ${ARGS}) { partnerMerchants(merchantIds: [$merchantId]) { merchant {
         merchantTransactions(${PASS}) { ...PartnerTransactionFields }
         merchantTransactionPage(${PASS}) } } }
       ${FRAGMENT}`,
      { merchantId: merchant, from: null, to: null, before: null, statuses: null, outletId: null, ...window },
      [merchant],
    );
    expect(res.errors).toBeUndefined();
    const { merchantTransactions, merchantTransactionPage } = res.data.partnerMerchants[0].merchant;
    return { typed: merchantTransactions, page: merchantTransactionPage };
  };

  beforeAll(async () => {
    stack = await startTestStack();
    url = stack.database.adminUrl;
    partnerId = (await createPartner(stack.config, url, { code: 'PPAGE', name: 'Partner Page', referralCode: 'PPAGEREF' })).partner_id;
    const onboarded = await onboardMerchant(stack.config, url, {
      name: 'Toko Halaman',
      bankCode: 'BDEMO',
      nmids: ['ID4026112420001'],
      outlets: 1,
      referralCode: 'PPAGEREF',
    });
    merchant = onboarded.merchant_id;
    outlet = onboarded.outlets[0].outlet_id;
    outsider = (await onboardMerchant(stack.config, url, { name: 'Toko Luar', bankCode: 'BDEMO', nmids: ['ID4026112420002'], outlets: 1 }))
      .merchant_id;

    // November 2026 (Asia/Jakarta), all but one at the merchant's outlet: every stored status, a settled one, nulls,
    // decimal rates, milliseconds, microseconds (dropped, as the typed field's Date drops them), and two rows at the same
    // instant (the id breaks the tie).
    await tx('2026-11-02T03:00:00.000Z', 'success', 10_000, { settled_at: '2026-11-03T03:00:00.123987Z', settlement_status: 'settled' });
    await tx('2026-11-03T03:00:00.000Z', 'pending', 8_000, { external_reference: null, payer_bank_name: null });
    await tx('2026-11-04T03:00:00.000Z', 'failed', 5_000);
    await tx('2026-11-05T03:00:00.000Z', 'cancelled', 6_000);
    await tx('2026-11-06T03:00:00.000Z', 'refunded', 7_000, { refunded_amount: 7_000 });
    await tx('2026-11-07T03:00:00.000999Z', 'reversed', 9_000);
    await tx('2026-11-08T16:59:59.999Z', 'success', 12_345, { mdr_rate: '0.0035', mdr_fee_amount: 43, net_amount_after_mdr: 12_302 });
    await tx('2026-11-08T16:59:59.999Z', 'success', 1_000, { outlet_id: null });
    await tx('2026-10-31T16:59:59.999Z', 'success', 99_999, { outlet_id: null }); // October in Jakarta

    tokens.A = await issue('A');
    tokens.B = await issue('B');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const NOVEMBER = { from: '2026-10-31T17:00:00.000Z', to: '2026-11-30T16:59:59.999Z' };

  // Windows as functions: the outlet's id is known only once beforeAll has run.
  it.each([
    ['no window', 9, () => ({})],
    ['contract B window', 8, () => NOVEMBER],
    ['contract A window (before, cap 50)', 8, () => ({ from: '2026-10-31T17:00:00.000Z', before: '2026-11-30T17:00:00.000Z', limit: 50 })],
    ['statuses', 2, () => ({ ...NOVEMBER, statuses: ['failed', 'cancelled'] })],
    ['limit', 3, () => ({ limit: 3 })],
    ['one outlet', 7, () => ({ ...NOVEMBER, outletId: outlet })],
  ])('the page equals the typed field, row for row and key for key: %s', async (_name, rows, window) => {
    const { typed, page } = await both({ limit: 500, ...window() });
    expect(typed).toHaveLength(rows);
    expect(page).toEqual(typed);
    for (const row of page as object[]) expect(Object.keys(row)).toEqual(Object.keys(typed[0]));
  });

  it('refuses the page to a partner principal whose merchantIds lack the merchant, as the typed field', async () => {
    for (const field of ['merchantTransactions(limit: 5) { id }', 'merchantTransactionPage(limit: 5)']) {
      for (const ids of [[], [outsider]]) {
        const res = await asPartner(`query { partnerMerchants(merchantIds: ["${merchant}"]) { merchant { id ${field} } } }`, {}, ids);
        expect({ field, code: res.errors?.[0]?.extensions?.code }).toEqual({ field, code: 'FORBIDDEN' });
      }
    }
  });

  it('contract B items are the typed field’s values, field by field (both routes)', async () => {
    const { typed } = await both({ ...NOVEMBER, limit: 500 });
    const expected = (t: TypedRow) => ({
      id: t.id,
      merchant_id: merchant,
      transaction_code: t.transactionCode,
      transaction_status: PARTNER_STATUS[t.status],
      payment_method: t.paymentMethod,
      payment_channel: t.paymentChannel,
      gross_amount: t.grossAmount,
      mdr_rate: Number(t.mdrRate),
      mdr_fee_amount: t.mdrFeeAmount,
      net_amount_after_mdr: t.netAmountAfterMdr,
      currency: t.currency,
      transaction_at: t.transactionAt,
      settled_at: t.settledAt,
      settlement_status: t.settlementStatus,
      outlet_id: t.outletId,
    });
    const range = `transaction_at_from=${encodeURIComponent(NOVEMBER.from)}&transaction_at_to=${encodeURIComponent(NOVEMBER.to)}&limit=500`;
    const body = await route('B', `/merchants/${merchant}/transactions?${range}`);
    expect(body).toEqual({ merchant_id: merchant, items: typed.map(expected), count: typed.length });

    const settled = body.items.find((i: { gross_amount: number }) => i.gross_amount === 10_000);
    expect(settled).toMatchObject({ settled_at: '2026-11-03T03:00:00.123Z', settlement_status: 'settled', transaction_status: 'success' });
    const pending = body.items.find((i: { gross_amount: number }) => i.gross_amount === 8_000);
    expect(pending).toMatchObject({ settled_at: null, payment_channel: null, transaction_status: 'pending' });
    expect(body.items.find((i: { gross_amount: number }) => i.gross_amount === 12_345)).toMatchObject({
      mdr_rate: 0.0035,
      transaction_at: '2026-11-08T16:59:59.999Z',
    });
    expect(body.items.map((i: { gross_amount: number; transaction_status: string }) => [i.gross_amount, i.transaction_status])).toEqual(
      expect.arrayContaining([
        [5_000, 'failed'],
        [6_000, 'failed'],
        [7_000, 'refunded'],
        [9_000, 'refunded'],
      ]),
    );

    const ofOutlet = (await both({ ...NOVEMBER, outletId: outlet, limit: 500 })).typed;
    const outletBody = await route('B', `/merchants/${merchant}/outlets/${outlet}/transactions?${range}`);
    expect(outletBody).toEqual({ merchant_id: merchant, outlet_id: outlet, items: ofOutlet.map(expected), count: ofOutlet.length });
  });

  it('contract A items are the typed field’s values, field by field, times in +07:00 (both routes)', async () => {
    const window = { from: '2026-10-31T17:00:00.000Z', before: '2026-11-30T17:00:00.000Z', limit: 50 };
    const expected = (t: TypedRow) => ({
      id: t.id,
      transaction_code: t.transactionCode,
      external_reference: t.externalReference,
      transaction_status: PARTNER_STATUS[t.status],
      payment_method: t.paymentMethod,
      payment_channel: t.paymentChannel,
      gross_amount: t.grossAmount,
      transaction_at: jakartaIso(new Date(t.transactionAt)),
      settled_at: t.settledAt ? jakartaIso(new Date(t.settledAt)) : null,
      outlet_id: t.outletId,
    });
    const { typed } = await both(window);
    const body = await route('A', `/merchants/${merchant}/transactions?period=monthly&anchor_date=2026-11-15`);
    expect(body.items).toEqual(typed.map(expected));
    expect(body.items.find((i: { gross_amount: number }) => i.gross_amount === 10_000)).toMatchObject({
      settled_at: '2026-11-03T10:00:00.123+07:00',
      transaction_status: 'success',
    });
    expect(body.items.find((i: { gross_amount: number }) => i.gross_amount === 8_000)).toMatchObject({
      settled_at: null,
      external_reference: null,
      payment_channel: null,
    });
    expect(body.items.find((i: { gross_amount: number }) => i.gross_amount === 12_345).transaction_at).toBe(
      '2026-11-08T23:59:59.999+07:00',
    );

    const ofOutlet = (await both({ ...window, outletId: outlet })).typed;
    const outletBody = await route('A', `/merchants/${merchant}/outlets/${outlet}/transactions?period=monthly&anchor_date=2026-11-15`);
    expect(outletBody.items).toEqual(ofOutlet.map(expected));
  });
});
