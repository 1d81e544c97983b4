import { Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { ZonedCalendar, addDays } from '@lib/time/zoned-time';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosSalesOrdersDocument } from '@rest-adapters/generated/operations';
import { SalesOrderHeader, toHeader } from '../pos-sales-order';
import { DEMO_SALES_ORDER, DEMO_SALES_ORDER_HEADER } from '@rest-adapters/core/examples';

/** Order dates are Asia/Jakarta calendar days (docs/decisions/0017-local-time-through-iana-zones.md). */
const JAKARTA = new ZonedCalendar('Asia/Jakarta');

const Day = (description: string) => Type.String({ format: 'date', description });

export default posRoutes({
  method: 'GET',
  path: '/sales/orders',
  summary: 'List sales orders (headers only), newest first',
  description: [
    'Newest first (`transacted_at`, then id). Pages by `limit` (default 50, at most 200) and `offset`.',
    '',
    '- `date_from` and `date_to` are Asia/Jakarta calendar days, both inclusive: orders transacted from 00:00 of `date_from` to before 00:00 of the day after `date_to`, Jakarta time. `date_from` after `date_to` → 400 `bad_request`.',
  ].join('\n'),
  schema: {
    querystring: Type.Object({
      outlet_id: Type.Optional(Type.String({ format: 'uuid' })),
      status: Type.Optional(Type.Union(['open', 'completed', 'voided', 'refunded'].map((s) => Type.Literal(s)))),
      date_from: Type.Optional(Day('First day, Asia/Jakarta (YYYY-MM-DD), inclusive.')),
      date_to: Type.Optional(Day('Last day, Asia/Jakarta (YYYY-MM-DD), inclusive.')),
      limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
      offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
    }),
    response: { 200: Type.Object({ orders: Type.Array(SalesOrderHeader) }), ...errorResponses(400, 401, 403, 429) },
  },
  operationId: 'PosSalesOrders',
  examples: {
    query: {
      outlet_id: DEMO_SALES_ORDER.outlet_id,
      status: 'completed',
      date_from: '2026-11-25',
      date_to: '2026-11-25',
      limit: 50,
      offset: 0,
    },
    responses: { 200: { orders: [DEMO_SALES_ORDER_HEADER] } },
  },
  run: async ({ query }, { execute }) => {
    if (query.date_from && query.date_to && query.date_from > query.date_to)
      throw new HttpError(400, 'bad_request', 'date_from must not be after date_to');
    const data = await execute(PosSalesOrdersDocument, {
      outletId: query.outlet_id,
      status: query.status,
      from: query.date_from ? JAKARTA.midnight(query.date_from).toISOString() : null,
      before: query.date_to ? JAKARTA.midnight(addDays(query.date_to, 1)).toISOString() : null,
      limit: query.limit,
      offset: query.offset,
    });
    return { orders: data.posSalesOrders.map(toHeader) };
  },
});
