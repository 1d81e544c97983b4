import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { idempotencyKeyOf, idempotencyRule } from '@rest-adapters/core/routes/poslite/idempotency-key';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { ClosePosTillDocument, PosTillCloseOutletDocument } from '@rest-adapters/generated/operations';
import { TILL_CLOSE_RULES, TillClose, toTillClose } from '../till-close';
import { DEMO_TILL_CLOSE } from '@rest-adapters/core/examples';

const Cash = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: `Whole rupiah: ${description}` });

const Body = Type.Object({
  outlet_id: Type.String({ format: 'uuid' }),
  kind: Type.Union([Type.Literal('day'), Type.Literal('shift')], {
    description: '`day`: the outlet’s business day; `shift`: a cashier’s shift, a window of its own.',
  }),
  business_day: Type.Optional(
    Nullable(
      Type.String({ format: 'date', description: '`day` only: the business day (Asia/Makassar); default today. Not a day to come.' }),
    ),
  ),
  shift_start: Type.Optional(Nullable(Type.String({ format: 'date-time', description: '`shift` only, required: start of the shift.' }))),
  shift_end: Type.Optional(
    Nullable(
      Type.String({
        format: 'date-time',
        description: '`shift` only: end of the shift, not in the future; default now. At most 24 hours.',
      }),
    ),
  ),
  cashier_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  counted_cash: Cash('cash counted in the drawer.'),
  opening_float: Type.Optional(Nullable(Cash('cash in the drawer at the start; default 0.'))),
  note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
});

/**
 * Two operations: the outlet (outlet subgraph: the merchant's, in the member's outlets, else 404/403), then the close
 * (catalog subgraph), which computes the figures from the merchant's sales orders (docs/decisions/0057-sales-orders-and-receipt-numbers.md).
 */
export default posRoutes({
  method: 'POST',
  path: '/till/closes',
  summary: 'Close an outlet’s day or a cashier’s shift',
  description: [
    'Records the close: the sales of the window by payment method and by product category, the voids, the QRIS the platform matched, the expected cash, the cash counted and the difference. Staff, admins and owners of the outlet may close (viewers: 403). 404 `not_found` for an outlet that is not the merchant’s.',
    '- A day: 00:00 of `business_day` (Asia/Makassar) to the next 00:00, or to now while the day is not over. A second close of the outlet’s day is 409 `till_already_closed`.',
    '- A shift: [`shift_start`, `shift_end`). The cashier is the app user (app surface) or `cashier_name`; a shift of the same cashier at the outlet that overlaps a closed one is 409 `till_already_closed`. Orders do not name their cashier: a shift’s figures are the outlet’s orders of its window.',
    idempotencyRule('close'),
    TILL_CLOSE_RULES,
  ].join('\n\n'),
  schema: { body: Body, response: { 201: TillClose, ...errorResponses(400, 401, 403, 404, 409, 429) } },
  operationId: 'ClosePosTill',
  examples: {
    body: {
      outlet_id: DEMO_TILL_CLOSE.outlet_id,
      kind: 'day',
      business_day: DEMO_TILL_CLOSE.business_day,
      cashier_name: DEMO_TILL_CLOSE.cashier_name,
      counted_cash: DEMO_TILL_CLOSE.counted_cash,
      opening_float: DEMO_TILL_CLOSE.opening_float,
      note: DEMO_TILL_CLOSE.note,
    },
    responses: { 201: DEMO_TILL_CLOSE },
  },
  status: 201,
  run: async ({ body }, { execute, header, request }) => {
    const idempotencyKey = idempotencyKeyOf(request);
    const { posOutlet: outlet } = await execute(PosTillCloseOutletDocument, { id: body.outlet_id });
    const { closePosTill: close } = await execute(ClosePosTillDocument, {
      input: {
        outletId: outlet.id,
        kind: body.kind,
        businessDay: body.business_day ?? null,
        shiftStart: body.shift_start ?? null,
        shiftEnd: body.shift_end ?? null,
        cashierName: body.cashier_name ?? null,
        countedCash: body.counted_cash,
        openingFloat: body.opening_float ?? null,
        note: body.note ?? null,
        idempotencyKey,
      },
    });
    if (close.idempotentReplay) header('idempotent-replayed', 'true');
    return toTillClose(close);
  },
});
