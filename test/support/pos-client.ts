import { randomUUID } from 'node:crypto';
import { sessionFor } from './core-auth';
import { adminQuery } from './test-database';
import type { TestStack } from './test-stack';

export type Surface = 'service' | 'app';

/** A merchant as both point-of-sale surfaces reach it: internal key + X-Merchant-ID, and a member's bearer token. */
export interface PosActor {
  merchantId: string;
  token: string;
}

/** A user who is owner of the merchant (rows written as the merchant subgraph's own seed would), with a token of a live session. */
export function posActor(stack: TestStack, merchantId: string): Promise<PosActor> {
  return posMember(stack, merchantId, 'owner');
}

/** A member of the merchant with `role`, limited to `outletIds` (none: all outlets), with a token of a live session. */
export async function posMember(
  stack: TestStack,
  merchantId: string,
  role: 'owner' | 'admin' | 'staff' | 'viewer',
  outletIds: string[] = [],
): Promise<PosActor> {
  const userId = randomUUID();
  const phone = `+6281${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  await adminQuery(
    stack.database.adminUrl,
    `insert into merchant.users (id, phone, created_at, updated_at) values ($1, $2, now(), now())`,
    [userId, phone],
  );
  await adminQuery(
    stack.database.adminUrl,
    `insert into merchant.merchant_users (id, merchant_id, user_id, role, outlet_ids, created_at) values ($1, $2, $3, $4, $5, now())`,
    [randomUUID(), merchantId, userId, role, outletIds],
  );
  const { authorization } = await sessionFor(stack, userId);
  return { merchantId, token: authorization.slice('Bearer '.length) };
}

/**
 * POST `path` (below `/poslite`) on a surface with extra headers (an Idempotency-Key), answering the raw response:
 * for creations whose headers and status the test reads.
 */
export function posPost(
  stack: TestStack,
  surface: Surface,
  actor: PosActor,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return stack.rest.inject({
    method: 'POST',
    url: `${surface === 'service' ? '/poslite' : '/merchant/poslite'}${path}`,
    headers: {
      ...(surface === 'service'
        ? { 'x-internal-api-key': stack.config.secrets.internalApiKey, 'x-merchant-id': actor.merchantId }
        : { authorization: `Bearer ${actor.token}` }),
      ...headers,
    },
    payload: body as object,
  });
}

export function posRequest(stack: TestStack, surface: Surface, actor: PosActor) {
  return async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) => {
    const headers: Record<string, string> =
      surface === 'service'
        ? { 'x-internal-api-key': stack.config.secrets.internalApiKey, 'x-merchant-id': actor.merchantId }
        : { authorization: `Bearer ${actor.token}` };
    const res = await stack.rest.inject({
      method,
      url: `${surface === 'service' ? '/poslite' : '/merchant/poslite'}${path}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
  };
}

/**
 * An `open` sales order of `total` rupiah (one line of a product made for it) pushed by the device through
 * POST …/sync/push, with a cash part of `paid` (0: no payment yet); its id.
 */
export async function pushOpenOrder(stack: TestStack, actor: PosActor, outletId: string, total: number, paid = 0): Promise<string> {
  return pushSalesOrder(stack, actor, { outletId, status: 'open', total, payments: paid > 0 ? [{ method: 'cash', amount: paid }] : [] });
}

/** A sales order of one product line of `total` pushed by a device (the service surface); its id. Default: made now. */
export async function pushSalesOrder(
  stack: TestStack,
  actor: PosActor,
  order: {
    outletId: string;
    status: 'open' | 'completed';
    total: number;
    payments: { method: string; amount: number }[];
    transactedAt?: Date;
  },
): Promise<string> {
  const { outletId, status, total, payments } = order;
  const push = posRequest(stack, 'service', actor);
  const product = await push('POST', '/catalog/products', { name: 'Nasi Goreng', sku: `NG-${randomUUID()}`, sell_price_amount: total });
  const [{ id: variantId }] = await adminQuery<{ id: string }>(
    stack.database.adminUrl,
    `select id from catalog.variants where product_id = $1`,
    [product.body.id],
  );
  const orderId = randomUUID();
  const paid = payments.reduce((sum, p) => sum + p.amount, 0);
  const res = await push('POST', '/sync/push', {
    items: [
      {
        outbox_id: randomUUID(),
        entity_type: 'sales_order',
        entity_id: orderId,
        op: 'create',
        payload: {
          outlet_id: outletId,
          status,
          transacted_at: (order.transactedAt ?? new Date()).getTime(),
          items: [{ line_no: 1, variant_id: variantId, quantity: 1, unit_price_amount: total, line_total_amount: total }],
          payments,
          subtotal_amount: total,
          total_amount: total,
          paid_amount: paid,
          change_amount: Math.max(paid - total, 0),
        },
      },
    ],
  });
  if (res.status !== 200 || res.body.accepted.length !== 1) throw new Error(`${status} order not accepted: ${JSON.stringify(res.body)}`);
  return orderId;
}
