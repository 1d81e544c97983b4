import { DEMO } from '@lib/domain/demo/demo-ids';
import { buildStaticQris, dynamicFromStatic } from '@lib/domain/qris/qris-payload';
import { codes, gql, memberHeaders } from '../support/graphql';
import { eventually } from '../support/eventually';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const [PUSAT, MENTENG] = DEMO.outlets;
const OTHER = DEMO.otherMerchants[0];

/** A well-formed static QRIS of `nmid` showing a shop name the caller chose. */
const staticOf = (nmid: string) =>
  buildStaticQris({
    nmid,
    merchantName: 'Toko Pilihan Penyerang',
    merchantCity: 'Jakarta',
    postalCode: null,
    mcc: '5812',
    criteria: 'UMI',
  });

const CREATE = `mutation ($input: CreateQrisPaymentInput!) { createQrisPayment(input: $input) { id outletId billNumber qrisPayload } }`;

/**
 * Issue 43 §3: the outlet of a dynamic QRIS, its NMID and its payload are the transaction subgraph's to decide,
 * whatever the document: through the gateway with trusted documents not enforced (as in development and test), and
 * through REST.
 */
describe('QRIS payment outlet scope', () => {
  let stack: TestStack;
  let owner: { authorization: string };
  let staff: { authorization: string };
  const paymentsOf = (outletId: string) =>
    adminQuery<{ nmid: string; merchant_id: string }>(
      stack.database.adminUrl,
      `select nmid, merchant_id from "transaction".qris_payments where outlet_id = $1`,
      [outletId],
    );

  beforeAll(async () => {
    stack = await startTestStack();
    expect(stack.config.gatewayLimits.trustedDocumentsOnly).toBe(false);
    owner = (await memberHeaders(stack, DEMO.merchantId, 'owner')).headers;
    staff = (await memberHeaders(stack, DEMO.merchantId, 'staff', [PUSAT.id])).headers;
  });
  afterAll(() => stack?.close());

  it('GraphQL: an owner naming another merchant’s outlet is FORBIDDEN, nothing stored', async () => {
    const answer = await gql(stack, CREATE, { input: { outletId: OTHER.outlets[0].id, amount: 7777 } }, owner);
    expect([answer.data?.createQrisPayment ?? null, codes(answer)]).toEqual([null, ['FORBIDDEN']]);
    expect(await paymentsOf(OTHER.outlets[0].id)).toEqual([]);
  });

  it('GraphQL: a staff member bound to one outlet naming the other is FORBIDDEN', async () => {
    const answer = await gql(stack, CREATE, { input: { outletId: MENTENG.id, amount: 7777 } }, staff);
    expect(codes(answer)).toEqual(['FORBIDDEN']);
    expect(await paymentsOf(MENTENG.id)).toEqual([]);
  });

  it('GraphQL: an NMID or a static payload of the caller is not an input, nothing stored', async () => {
    for (const extra of [{ nmid: OTHER.outlets[0].nmid }, { staticPayload: staticOf(PUSAT.nmid) }]) {
      const answer = await gql(stack, CREATE, { input: { outletId: PUSAT.id, amount: 7777, ...extra } }, owner);
      expect([answer.data?.createQrisPayment ?? null, answer.errors?.length]).toEqual([null, 1]);
    }
    expect(await paymentsOf(PUSAT.id)).toEqual([]);
  });

  it('GraphQL: the payment’s NMID and payload are the outlet’s, as its sticker shows them', async () => {
    const own = await gql(stack, CREATE, { input: { outletId: PUSAT.id, amount: 7777 } }, staff);
    expect(own.errors).toBeUndefined();
    expect(own.data.createQrisPayment.outletId).toBe(PUSAT.id);
    expect(await paymentsOf(PUSAT.id)).toEqual([{ nmid: PUSAT.nmid, merchant_id: DEMO.merchantId }]);
    const sticker = await stack.rest.inject({ method: 'GET', url: `/merchant/outlets/${PUSAT.id}/qris?format=text`, headers: owner });
    expect(sticker.statusCode).toBe(200);
    const { billNumber, qrisPayload } = own.data.createQrisPayment;
    expect(qrisPayload).toBe(dynamicFromStatic(sticker.headers['x-qris-payload'] as string, 7777, billNumber));
  });

  it('the payload follows the merchant’s name and the outlet’s correction through the copy (owners’ jobs)', async () => {
    const payloadOf = async () => {
      const res = await stack.rest.inject({
        method: 'POST',
        url: '/merchant/poslite/payments/qris',
        headers: owner,
        payload: { outlet_id: PUSAT.id, amount: 1234 },
      });
      expect(res.statusCode).toBe(201);
      return res.json() as { qris_payload: string; bill_number: string };
    };
    await adminQuery(stack.database.adminUrl, `update merchant.merchants set name = 'Warung Nama Baru' where id = $1`, [DEMO.merchantId]);
    await eventually('the new name in the payload', async () =>
      (await payloadOf()).qris_payload.includes('WARUNG NAMA BARU') ? true : undefined,
    );
    const correction = staticOf(PUSAT.nmid);
    const patched = await stack.rest.inject({
      method: 'PATCH',
      url: `/merchant/poslite/catalog/outlets/${PUSAT.id}`,
      headers: owner,
      payload: { qris_static_payload: correction },
    });
    expect(patched.statusCode).toBe(200);
    await eventually('the correction in the payload', async () => {
      const payment = await payloadOf();
      return payment.qris_payload === dynamicFromStatic(correction, 1234, payment.bill_number) ? true : undefined;
    });
  });

  it.each([
    ['app: the owner, another merchant’s outlet → 404', 'app-owner', OTHER.outlets[0].id, 404],
    ['app: staff of PUSAT, MENTENG → 403', 'app-staff', MENTENG.id, 403],
    ['service: X-Merchant-ID of the demo merchant, another merchant’s outlet → 404', 'service', OTHER.outlets[0].id, 404],
  ] as const)('REST POST …/payments/qris, %s, nothing stored', async (_what, caller, outletId, status) => {
    const res = await stack.rest.inject({
      method: 'POST',
      url: caller === 'service' ? '/poslite/payments/qris' : '/merchant/poslite/payments/qris',
      headers:
        caller === 'service'
          ? { 'x-internal-api-key': stack.config.secrets.internalApiKey, 'x-merchant-id': DEMO.merchantId }
          : caller === 'app-owner'
            ? owner
            : staff,
      payload: { outlet_id: outletId, amount: 7777 },
    });
    expect([res.statusCode, res.json().code]).toEqual([status, status === 404 ? 'not_found' : 'forbidden']);
    expect(await paymentsOf(outletId)).toEqual([]);
  });
});
