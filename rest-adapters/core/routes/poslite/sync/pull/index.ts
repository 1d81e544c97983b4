import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosSyncPullDocument, PosSyncPullOutletsDocument } from '@rest-adapters/generated/operations';
import { toDeviceRow, toServerTime } from './mapper';

const ENTITIES = ['outlets', 'categories', 'products', 'variants', 'product_stock', 'customers'] as const;

/**
 * Outlets belong to the outlet subgraph, the rest to the catalog: the entity picks one of two fixed operations
 * (one runs per request). `since` and `server_time` are sync watermarks, not clock times (docs/decisions/0055-pos-sync-pull.md
 * "Point of sale"): a device stores the last `server_time` and sends it back.
 */
export default posRoutes({
  method: 'GET',
  path: '/sync/pull',
  summary: 'Rows of one entity changed since the last pull (deleted rows included)',
  description:
    'since: the server_time of the previous page (empty or 0: full pull). server_time is an opaque, increasing sync watermark. Rows: epoch-millisecond timestamps, booleans 0/1.',
  schema: {
    querystring: Type.Object({
      entity: Type.Union(ENTITIES.map((e) => Type.Literal(e))),
      since: Type.String({
        pattern: '^[0-9]{0,16}$',
        default: '',
        description: 'server_time of the previous page; empty for a full pull.',
      }),
      limit: Type.Integer({ minimum: 1, maximum: 200, default: 200 }),
    }),
    response: {
      200: Type.Object({
        entity: Type.String(),
        rows: Type.Array(Type.Object({}, { additionalProperties: true })),
        server_time: Type.Integer({ description: 'Sync watermark to send back as since.' }),
        has_more: Type.Boolean(),
      }),
      ...errorResponses(400, 401, 403, 429),
    },
  },
  operationId: 'PosSyncPull',
  run: async ({ query }, { execute }) => {
    const variables = { since: query.since === '' ? '0' : query.since, limit: query.limit };
    const page =
      query.entity === 'outlets'
        ? (await execute(PosSyncPullOutletsDocument, variables)).posOutletChanges
        : (await execute(PosSyncPullDocument, { ...variables, entity: query.entity })).posChanges;
    return { entity: query.entity, rows: page.rows.map(toDeviceRow), server_time: toServerTime(page.watermark), has_more: page.hasMore };
  },
});
