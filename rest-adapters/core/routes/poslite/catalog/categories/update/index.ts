import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { UpdatePosCategoryDocument } from '@rest-adapters/generated/operations';
import { PosCategory, toPosCategory } from '../pos-category';
import { DEMO_POS_CATEGORY } from '@rest-adapters/core/examples';

const Body = Type.Object({
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  parent_id: Type.Optional(
    Nullable(Type.Union([Type.String({ format: 'uuid' }), Type.Literal('')], { description: '"" moves it to the top level.' })),
  ),
  sort_order: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  icon_name: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  is_active: Type.Optional(Nullable(Type.Boolean())),
});

export default posRoutes({
  method: 'PATCH',
  path: '/catalog/categories/:id',
  summary: 'Change a category (absent or null fields stay)',
  description: [
    'A new `parent_id` must be a live category of the merchant and neither the category itself nor one of its descendants (otherwise 400 `bad_request`); `""` moves it to the top level.',
  ].join('\n'),
  schema: { params: IdParams, body: Body, response: { 200: PosCategory, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'UpdatePosCategory',
  examples: {
    params: { id: DEMO_POS_CATEGORY.id },
    body: { name: 'Kopi Susu', sort_order: 1 },
    responses: { 200: { ...DEMO_POS_CATEGORY, name: 'Kopi Susu', updated_at: '2026-11-25T03:25:00.000Z' } },
  },
  run: async ({ params, body }, { execute }) => {
    const data = await execute(UpdatePosCategoryDocument, {
      id: params.id,
      input: { name: body.name, parentId: body.parent_id, sortOrder: body.sort_order, iconName: body.icon_name, isActive: body.is_active },
    });
    return toPosCategory(data.updatePosCategory);
  },
});
