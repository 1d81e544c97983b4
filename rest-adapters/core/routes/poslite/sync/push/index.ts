import { Type } from '@sinclair/typebox';
import { SYNC_PUSH_BODY_LIMIT, SYNC_PUSH_TIMEOUT_MS } from '@lib/http/request-limits';
import { errorResponses } from '@lib/rest/error-body';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosSyncPushDocument } from '@rest-adapters/generated/operations';
import { DEMO_SALES_ORDER } from '@rest-adapters/core/examples';

const Item = Type.Object({
  outbox_id: Type.String({ format: 'uuid' }),
  entity_type: Type.Union([Type.Literal('sales_order'), Type.Literal('stock_movement'), Type.Literal('customer')]),
  entity_id: Type.String({ format: 'uuid' }),
  op: Type.String({ minLength: 1, maxLength: 16, description: 'sales_order: create; stock_movement: create; customer: upsert or delete.' }),
  payload: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export default posRoutes({
  method: 'POST',
  path: '/sync/push',
  summary: 'Apply a device outbox (at most 500 items, idempotent per outbox_id)',
  description:
    'Each item is accepted (applied now or before) or rejected with a reason; one bad item does not reject the others. ' +
    'The body may be up to 8 MiB (500 sales orders of about 100 lines each; larger is 413 payload_too_large) and is applied within 45 s.',
  schema: {
    body: Type.Object({ items: Type.Array(Item, { maxItems: 500 }) }),
    response: {
      200: Type.Object({ accepted: Type.Array(Type.String()), rejected: Type.Record(Type.String(), Type.String()) }),
      ...errorResponses(400, 401, 403, 413, 429),
    },
  },
  operationId: 'PosSyncPush',
  examples: {
    body: {
      items: [
        {
          outbox_id: '019abc4e-8b11-7e42-a5d6-0c2e4a6b8d01',
          entity_type: 'sales_order',
          entity_id: DEMO_SALES_ORDER.id,
          op: 'create',
          payload: {
            outlet_id: DEMO_SALES_ORDER.outlet_id,
            source: DEMO_SALES_ORDER.source,
            transacted_at: 1795055287000,
            subtotal_amount: 48_000,
            total_amount: 48_000,
            paid_amount: 50_000,
            change_amount: 2_000,
            items: DEMO_SALES_ORDER.items.map(({ line_no, variant_id, quantity, unit_price_amount, line_total_amount }) => ({
              line_no,
              variant_id,
              quantity,
              unit_price_amount,
              line_total_amount,
            })),
            payments: [{ method: 'cash', amount: 50_000 }],
          },
        },
        {
          outbox_id: '019abc4e-8b11-7e42-a5d6-0c2e4a6b8d02',
          entity_type: 'stock_movement',
          entity_id: '019abc4e-8c30-7a15-9e2b-4d6f8a0c2e47',
          op: 'create',
          payload: { variant_id: DEMO_SALES_ORDER.items[1].variant_id, quantity_delta: -1, reason: 'sale' },
        },
      ],
    },
    responses: {
      200: {
        accepted: ['019abc4e-8b11-7e42-a5d6-0c2e4a6b8d01'],
        rejected: { '019abc4e-8b11-7e42-a5d6-0c2e4a6b8d02': 'reason must be adjustment, restock or waste' },
      },
    },
  },
  bodyLimit: SYNC_PUSH_BODY_LIMIT,
  timeoutMs: SYNC_PUSH_TIMEOUT_MS,
  run: async ({ body }, { execute }) => {
    const data = await execute(PosSyncPushDocument, {
      items: body.items.map((i) => ({
        outboxId: i.outbox_id,
        entityType: i.entity_type,
        entityId: i.entity_id,
        op: i.op,
        payload: i.payload ?? null,
      })),
    });
    return {
      accepted: data.pushPosChanges.accepted,
      rejected: Object.fromEntries(data.pushPosChanges.rejected.map((r) => [r.outboxId, r.reason])),
    };
  },
});
