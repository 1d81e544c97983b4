import { Type } from '@sinclair/typebox';
import { HttpError, errorResponses } from '@lib/rest/error-body';
import { addDays } from '@lib/time/zoned-time';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosTillClosesDocument } from '@rest-adapters/generated/operations';
import { TILL_ZONE_CALENDAR, TILL_CLOSE_RULES, TillClose, toTillClose } from '../till-close';
import { DEMO_TILL_CLOSE } from '@rest-adapters/core/examples';

const Day = (description: string) => Type.String({ format: 'date', description });

export default posRoutes({
  method: 'GET',
  path: '/till/closes',
  summary: 'List till closes, newest first',
  description: [
    'The owner’s record of the closes: newest window end first (then id), by `limit` (default 50, at most 200) and `offset`. A member sees the closes of its outlets only (an `outlet_id` outside them: 403).',
    '- `date_from` and `date_to` are Asia/Makassar calendar days, both inclusive: closes whose window overlaps them. `date_from` after `date_to` → 400 `bad_request`.',
    TILL_CLOSE_RULES,
  ].join('\n\n'),
  schema: {
    querystring: Type.Object({
      outlet_id: Type.Optional(Type.String({ format: 'uuid' })),
      date_from: Type.Optional(Day('First day, Asia/Makassar (YYYY-MM-DD), inclusive.')),
      date_to: Type.Optional(Day('Last day, Asia/Makassar (YYYY-MM-DD), inclusive.')),
      limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
      offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
    }),
    response: { 200: Type.Object({ closes: Type.Array(TillClose) }), ...errorResponses(400, 401, 403, 429) },
  },
  operationId: 'PosTillCloses',
  examples: {
    query: { outlet_id: DEMO_TILL_CLOSE.outlet_id, date_from: '2026-11-25', date_to: '2026-11-25', limit: 50, offset: 0 },
    responses: { 200: { closes: [DEMO_TILL_CLOSE] } },
  },
  run: async ({ query }, { execute }) => {
    if (query.date_from && query.date_to && query.date_from > query.date_to)
      throw new HttpError(400, 'bad_request', 'date_from must not be after date_to');
    const data = await execute(PosTillClosesDocument, {
      outletId: query.outlet_id,
      from: query.date_from ? TILL_ZONE_CALENDAR.midnight(query.date_from).toISOString() : null,
      before: query.date_to ? TILL_ZONE_CALENDAR.midnight(addDays(query.date_to, 1)).toISOString() : null,
      limit: query.limit,
      offset: query.offset,
    });
    return { closes: data.posTillCloses.map(toTillClose) };
  },
});
