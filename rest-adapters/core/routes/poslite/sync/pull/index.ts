import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosSyncPullDocument, PosSyncPullOutletsDocument } from '@rest-adapters/generated/operations';
import { toDeviceRow } from './mapper';
import { DEMO_POS_PRODUCT } from '@rest-adapters/core/examples';

const ENTITIES = ['outlets', 'categories', 'products', 'variants', 'product_stock', 'customers', 'sales_orders'] as const;

/**
 * Outlets belong to the outlet subgraph, the rest to the catalog: the entity picks one of two fixed operations
 * (one runs per request). `since` and `server_time` are epoch milliseconds of write time
 * (docs/decisions/0055-pos-sync.md): a device stores the last `server_time` and sends it back,
 * or seeds `since` from its clock or a row's `updated_at`.
 */
export default posRoutes({
  method: 'GET',
  path: '/sync/pull',
  summary: 'Rows of one entity changed since the last pull (deleted rows included)',
  description:
    "since: epoch milliseconds (empty or 0: full pull); rows written in a later millisecond are returned — send back the previous server_time, or seed it from a clock or a row's updated_at. " +
    'server_time: epoch milliseconds up to which every row has been delivered; it may trail the clock by the age of the oldest write still open, and is never later than the clock. ' +
    'Rows: updated_at is the time of the last write (epoch milliseconds, like every *_at), booleans 0/1. A page ends on a millisecond boundary; a millisecond with more rows than limit comes whole. ' +
    '`sales_orders` (beyond the contract’s six entities) are order headers as the order list answers them, plus customer_id, discount_amount, tax_amount, void_reason, created_at and updated_at: a device learns of an order the server completed (paid by dynamic QRIS) or that was voided.',
  schema: {
    querystring: Type.Object({
      entity: Type.Union(ENTITIES.map((e) => Type.Literal(e))),
      since: Type.String({
        pattern: '^[0-9]{0,16}$',
        default: '',
        description:
          "Epoch milliseconds: the server_time of the previous page, a clock reading or a row's updated_at; empty for a full pull.",
      }),
      limit: Type.Integer({ minimum: 1, maximum: 200, default: 200 }),
    }),
    response: {
      200: Type.Object({
        entity: Type.String(),
        rows: Type.Array(Type.Object({}, { additionalProperties: true })),
        server_time: Type.Integer({ description: 'Epoch milliseconds up to which every row has been delivered; send it back as since.' }),
        has_more: Type.Boolean(),
      }),
      ...errorResponses(400, 401, 403, 429),
    },
  },
  operationId: 'PosSyncPull',
  examples: {
    query: { entity: 'products', since: '1795055400000', limit: 200 },
    responses: {
      200: {
        entity: 'products',
        rows: [
          {
            id: DEMO_POS_PRODUCT.id,
            merchant_id: DEMO_POS_PRODUCT.merchant_id,
            category_id: DEMO_POS_PRODUCT.category_id,
            name: DEMO_POS_PRODUCT.name,
            sku: DEMO_POS_PRODUCT.sku,
            product_type: 'good',
            sell_price_amount: 20_000,
            cost_price_amount: 7_500,
            unit_label: 'gelas',
            tax_rate_bps: 0,
            track_stock: 0,
            is_active: 1,
            sort_order: 1,
            created_at: 1795050720000,
            updated_at: 1795055400512,
            deleted_at: null,
          },
        ],
        server_time: 1795055460000,
        has_more: false,
      },
    },
  },
  run: async ({ query }, { execute }) => {
    const variables = { since: query.since === '' ? '0' : query.since, limit: query.limit };
    const page =
      query.entity === 'outlets'
        ? (await execute(PosSyncPullOutletsDocument, variables)).posOutletChanges
        : (await execute(PosSyncPullDocument, { ...variables, entity: query.entity })).posChanges;
    return { entity: query.entity, rows: page.rows.map(toDeviceRow), server_time: page.serverTime, has_more: page.hasMore };
  },
});
