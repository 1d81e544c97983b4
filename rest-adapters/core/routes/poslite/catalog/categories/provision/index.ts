import { Type } from '@sinclair/typebox';
import { errorResponses } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { ProvisionPosCategoriesDocument } from '@rest-adapters/generated/operations';
import { PosCategories, toPosCategory } from '../pos-category';
import { DEMO_POS_CATEGORIES } from '@rest-adapters/core/examples';

const Choice = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  icon_name: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
});
const toInput = (c: { name: string; icon_name?: string | null }) => ({ name: c.name, iconName: c.icon_name ?? null });

export default posRoutes({
  method: 'POST',
  path: '/catalog/categories/provision',
  summary: 'First-run categories (idempotent: a merchant with categories gets them back, nothing is inserted)',
  description: [
    'Inserts `selected` then `custom`, each name once (case-insensitive), with `sort_order` 1, 2, … — only when the merchant has no live category. Otherwise nothing is inserted and the existing categories are returned. Concurrent provisions of one merchant insert once.',
  ].join('\n'),
  schema: {
    body: Type.Object({ selected: Type.Array(Choice, { maxItems: 100 }), custom: Type.Array(Choice, { maxItems: 100 }) }),
    response: { 200: PosCategories, ...errorResponses(400, 401, 403, 429) },
  },
  operationId: 'ProvisionPosCategories',
  examples: {
    body: {
      selected: [
        { name: 'Kopi', icon_name: 'coffee' },
        { name: 'Minuman Dingin', icon_name: 'local_drink' },
      ],
      custom: [{ name: 'Makanan Ringan', icon_name: 'cookie' }],
    },
    responses: { 200: { categories: DEMO_POS_CATEGORIES } },
  },
  run: async ({ body }, { execute }) => {
    const data = await execute(ProvisionPosCategoriesDocument, { selected: body.selected.map(toInput), custom: body.custom.map(toInput) });
    return { categories: data.provisionPosCategories.map(toPosCategory) };
  },
});
