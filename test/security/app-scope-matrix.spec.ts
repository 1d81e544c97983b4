import { randomUUID } from 'node:crypto';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { ALL_ROUTES, SECURITY_STACK_ENV, authKindOf } from '../support/route-requests';
import { postDemoBankEvent } from '../support/bank-events';
import { memberHeaders } from '../support/graphql';
import { posActor, posRequest, pushOpenOrder } from '../support/pos-client';
import { adminQuery } from '../support/test-database';
import { type TestStack, startTestStack } from '../support/test-stack';

const [PUSAT, MENTENG] = DEMO.outlets;
const OTHER = DEMO.otherMerchants[0];

type Role = 'owner' | 'admin' | 'staff' | 'viewer';
/**
 * What each outlet holds: its id and the ids of a transaction, a sales order, a QRIS payment and a till close made
 * there, and a product and a category of its merchant (the catalog is merchant-wide: decision 0061).
 */
interface Objects {
  outlet: string;
  transaction: string;
  order: string;
  payment: string;
  close: string;
  product: string;
  category: string;
}
type Ids = Record<'pusat' | 'menteng' | 'other', Objects>;

/**
 * Every read route of the merchant app and POS lite (core-api.md), as paths for an object in and out of the caller's
 * scope. `list`: paths whose answers must hold nothing out of scope. `one`: a path per object; out of scope it must
 * be 403 or 404. Adding an app or POS read route without a row here fails the first test.
 */
const READS: Record<string, { list?: string[]; one?: (o: Objects) => string; merchantWide?: true }> = {
  'GET /merchant/transactions': { list: ['/merchant/transactions?period=today'] },
  'GET /merchant/payment-terminal': { list: ['/merchant/payment-terminal'] },
  // Owners only (decision 0242): the others' answers are 403; a statement of no merchant is 404.
  'GET /merchant/statements': { list: ['/merchant/statements'] },
  'GET /merchant/statements/:id/download': { list: [`/merchant/statements/${randomUUID()}/download`] },
  // Owners only (decision 0240): the others' answers are 403.
  'GET /merchant/fee-overcharges': { list: ['/merchant/fee-overcharges'] },
  // Owners all outlets, admins and viewers theirs, staff 403 (decision 0242).
  'GET /merchant/reconciliation': {
    list: [`/merchant/reconciliation?business_day=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}`],
  },
  'GET /merchant/payments/events': { list: ['/merchant/payments/events?last_event_id=0'] },
  'GET /merchant/poslite/catalog/outlets': { list: ['/merchant/poslite/catalog/outlets'] },
  'GET /merchant/poslite/catalog/outlets/:id': { one: (o) => `/merchant/poslite/catalog/outlets/${o.outlet}` },
  'GET /merchant/outlets/:outlet_id/qris': { one: (o) => `/merchant/outlets/${o.outlet}/qris?format=text` },
  'GET /merchant/poslite/catalog/categories': { list: ['/merchant/poslite/catalog/categories'] },
  'GET /merchant/poslite/catalog/categories/defaults': { list: ['/merchant/poslite/catalog/categories/defaults'] },
  'GET /merchant/poslite/catalog/categories/:id': { one: (o) => `/merchant/poslite/catalog/categories/${o.category}`, merchantWide: true },
  'GET /merchant/poslite/catalog/products': { list: ['/merchant/poslite/catalog/products'] },
  'GET /merchant/poslite/catalog/products/:id': { one: (o) => `/merchant/poslite/catalog/products/${o.product}`, merchantWide: true },
  'GET /merchant/poslite/sync/pull': {
    list: ['sales_orders', 'product_stock', 'outlets'].map((entity) => `/merchant/poslite/sync/pull?entity=${entity}&since=0`),
  },
  'GET /merchant/poslite/sales/orders': { list: ['/merchant/poslite/sales/orders'] },
  'GET /merchant/poslite/sales/orders/:id': { one: (o) => `/merchant/poslite/sales/orders/${o.order}` },
  'GET /merchant/poslite/payments/qris/:id': { one: (o) => `/merchant/poslite/payments/qris/${o.payment}` },
  'GET /merchant/poslite/till/closes': { list: ['/merchant/poslite/till/closes'] },
  'GET /merchant/poslite/till/closes/:id': { one: (o) => `/merchant/poslite/till/closes/${o.close}` },
  'GET /merchant/poslite/payments/qris/:id/events': { one: (o) => `/merchant/poslite/payments/qris/${o.payment}/events` },
};
/** App routes that read no merchant data: the user's own account. */
const NOT_MERCHANT_DATA = ['GET /auth/account-settings', 'GET /auth/profile'];

/** Writes to an outlet out of scope: 403 (the owner's, another merchant's outlet: 404, as the REST contract says). */
const WRITES: { route: string; send: (o: Objects) => { method: 'POST' | 'PATCH'; url: string; payload: object } }[] = [
  {
    route: 'POST /merchant/poslite/payments/qris',
    send: (o) => ({ method: 'POST', url: '/merchant/poslite/payments/qris', payload: { outlet_id: o.outlet, amount: 5000 } }),
  },
  {
    route: 'POST /merchant/poslite/till/closes',
    send: (o) => ({ method: 'POST', url: '/merchant/poslite/till/closes', payload: { outlet_id: o.outlet, kind: 'day', counted_cash: 0 } }),
  },
  {
    route: 'PATCH /merchant/poslite/catalog/outlets/:id',
    send: (o) => ({ method: 'PATCH', url: `/merchant/poslite/catalog/outlets/${o.outlet}`, payload: { name: 'Diambil alih' } }),
  },
  {
    route: 'PATCH /merchant/poslite/sales/orders/:id',
    send: (o) => ({ method: 'PATCH', url: `/merchant/poslite/sales/orders/${o.order}`, payload: { action: 'void', void_reason: 'x' } }),
  },
];

/**
 * Issue 43 §4 and decision 0061: one scope rule on every read of the app and POS. Roles: the owner (every outlet of
 * its merchant), and an admin, a staff member and a viewer each bound to PUSAT. Out of scope: MENTENG for the bound
 * roles, another merchant's outlet for everyone.
 */
describe('app and POS scope matrix (role × outlet × route)', () => {
  let stack: TestStack;
  const as = {} as Record<Role, { authorization: string }>;
  const ids = {} as Ids;
  const roles: Role[] = ['owner', 'admin', 'staff', 'viewer'];
  const inScope = (role: Role): (keyof Ids)[] => (role === 'owner' ? ['pusat', 'menteng'] : ['pusat']);
  const outOfScope = (role: Role): (keyof Ids)[] => (role === 'owner' ? ['other'] : ['menteng', 'other']);
  /** The ids nothing may show: every object of another merchant, the outlet-bound ones of an outlet out of scope. */
  const markers = (keys: (keyof Ids)[]) =>
    keys.flatMap((k) => {
      const { product, category, ...outletBound } = ids[k];
      return k === 'other' ? [product, category, ...Object.values(outletBound)] : Object.values(outletBound);
    });
  const get = (role: Role, url: string) => stack.rest.inject({ method: 'GET', url, headers: as[role] });

  beforeAll(async () => {
    stack = await startTestStack(SECURITY_STACK_ENV);
    for (const role of roles) as[role] = (await memberHeaders(stack, DEMO.merchantId, role, role === 'owner' ? [] : [PUSAT.id])).headers;
    const made = async (merchantId: string, outlet: { id: string; nmid: string }): Promise<Objects> => {
      const actor = await posActor(stack, merchantId);
      const code = `TRX-SCOPE-${randomUUID()}`;
      const event = await postDemoBankEvent(stack, {
        external_event_id: code,
        transaction_code: code,
        nmid: outlet.nmid,
        gross_amount: 4321,
      });
      expect(event.statusCode).toBe(200);
      const order = await pushOpenOrder(stack, actor, outlet.id, 3000);
      const payment = await posRequest(stack, 'service', actor)('POST', '/payments/qris', { outlet_id: outlet.id, amount: 5000 });
      expect(payment.status).toBe(201);
      const category = await posRequest(stack, 'service', actor)('POST', '/catalog/categories', { name: `Kategori ${code}` });
      const close = await posRequest(stack, 'service', actor)('POST', '/till/closes', {
        outlet_id: outlet.id,
        kind: 'shift',
        shift_start: new Date(Date.now() - 3_600_000).toISOString(),
        cashier_name: 'Scope',
        counted_cash: 0,
      });
      expect(close.status).toBe(201);
      const [{ transaction, product }] = await adminQuery<{ transaction: string; product: string }>(
        stack.database.adminUrl,
        `select (select id from "transaction".transactions where transaction_code = $1) as transaction,
                (select v.product_id from catalog.sales_order_items i join catalog.variants v on v.id = i.variant_id
                  where i.sales_order_id = $2 limit 1) as product`,
        [code, order],
      );
      return { outlet: outlet.id, transaction, order, payment: payment.body.id, close: close.body.id, product, category: category.body.id };
    };
    ids.pusat = await made(DEMO.merchantId, PUSAT);
    ids.menteng = await made(DEMO.merchantId, MENTENG);
    ids.other = await made(OTHER.id, OTHER.outlets[0]);
  });
  afterAll(() => stack?.close());

  it('lists every app and POS read route', () => {
    const reads = ALL_ROUTES.filter((r) => r.method === 'GET' && ['user', 'pos-user'].includes(authKindOf(r))).map(
      (r) => `${r.method} ${r.url}`,
    );
    expect(reads.filter((key) => !NOT_MERCHANT_DATA.includes(key)).sort()).toEqual(Object.keys(READS).sort());
  });

  const cells = roles.flatMap((role) => Object.keys(READS).map((route) => [role, route] as const));
  const check = async (role: Role, route: string) => {
    const { list, one, merchantWide } = READS[route];
    const answers = [];
    for (const path of list ?? []) answers.push(await get(role, path));
    // A merchant-wide object (the catalog) is out of scope only at another merchant.
    for (const key of one ? outOfScope(role).filter((k) => !merchantWide || k === 'other') : []) {
      const res = await get(role, one!(ids[key]));
      expect([403, 404]).toContain(res.statusCode);
      answers.push(res);
    }
    for (const key of one ? inScope(role) : []) answers.push(await get(role, one!(ids[key])));
    for (const res of answers) {
      expect(res.statusCode).toBeLessThan(500);
      for (const marker of markers(outOfScope(role))) expect(`${route}: ${res.body}`).not.toContain(marker);
    }
  };
  it.each(cells)('%s: %s returns nothing out of scope', check);

  it.each(roles)('%s: lists show what is in scope (transactions, sales orders, outlets, their sync pulls)', async (role) => {
    const shown = [
      (await get(role, '/merchant/poslite/sync/pull?entity=sales_orders&since=0')).body,
      (await get(role, '/merchant/poslite/sync/pull?entity=outlets&since=0')).body,
      (await get(role, '/merchant/transactions?period=today')).body,
      (await get(role, '/merchant/poslite/sales/orders')).body,
      (await get(role, '/merchant/poslite/catalog/outlets')).body,
    ].join('\n');
    for (const key of inScope(role)) for (const id of [ids[key].transaction, ids[key].order, ids[key].outlet]) expect(shown).toContain(id);
  });

  const writes = roles.flatMap((role) => WRITES.map((w) => [role, w.route, w] as const));
  it.each(writes)('%s: %s out of scope → 403 or 404, as documented', async (role, _route, write) => {
    for (const key of outOfScope(role)) {
      const res = await stack.rest.inject({ ...write.send(ids[key]), headers: as[role] });
      // Another merchant's object is 404 for the owner; a bound member may get 403 first (outlet or role check).
      const expected: [number, string][] =
        key === 'menteng'
          ? [[403, 'forbidden']]
          : role === 'owner'
            ? [[404, 'not_found']]
            : [
                [403, 'forbidden'],
                [404, 'not_found'],
              ];
      expect(expected).toContainEqual([res.statusCode, res.json().code]);
    }
  });
});
