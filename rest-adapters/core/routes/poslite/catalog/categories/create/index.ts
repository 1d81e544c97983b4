import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { CreatePosCategoryDocument } from '@rest-adapters/generated/operations';
import { PosCategory, toPosCategory } from '../pos-category';
import { DEMO_POS_CATEGORY } from '@rest-adapters/core/examples';

const Body = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  parent_id: Type.Optional(Nullable(Type.String({ format: 'uuid' }))),
  sort_order: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  icon_name: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
});

export default posRoutes({
  method: 'POST',
  path: '/catalog/categories',
  summary: 'Create a category',
  description: ['`parent_id` must be a live category of the merchant (otherwise 400 `bad_request`).'].join('\n'),
  schema: { body: Body, response: { 201: PosCategory, ...errorResponses(400, 401, 403, 429) } },
  operationId: 'CreatePosCategory',
  examples: {
    body: { name: 'Paket Hemat', sort_order: 4, icon_name: 'lunch_dining' },
    responses: {
      201: {
        ...DEMO_POS_CATEGORY,
        id: '019abc4e-6f12-7b83-8d4a-1c3e5f7a9b02',
        name: 'Paket Hemat',
        sort_order: 4,
        icon_name: 'lunch_dining',
        created_at: '2026-11-25T03:20:00.000Z',
        updated_at: '2026-11-25T03:20:00.000Z',
      },
    },
  },
  status: 201,
  run: async ({ body }, { execute }) => {
    const data = await execute(CreatePosCategoryDocument, {
      input: { name: body.name, parentId: body.parent_id, sortOrder: body.sort_order, iconName: body.icon_name },
    });
    return toPosCategory(data.createPosCategory);
  },
});
