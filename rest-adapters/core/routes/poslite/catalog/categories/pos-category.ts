import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { PosCategoryFieldsFragment } from '@rest-adapters/generated/operations';

/** core-api.md §2 Category, with id, merchant and times. */
export const PosCategory = Type.Object({
  id: Type.String({ format: 'uuid' }),
  merchant_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  parent_id: Nullable(Type.String({ format: 'uuid' })),
  sort_order: Type.Integer(),
  icon_name: Nullable(Type.String()),
  is_active: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type PosCategory = Static<typeof PosCategory>;
export const PosCategories = Type.Object({ categories: Type.Array(PosCategory) });

export function toPosCategory(c: PosCategoryFieldsFragment): PosCategory {
  return {
    id: c.id,
    merchant_id: c.merchant.id,
    name: c.name,
    parent_id: c.parentId,
    sort_order: c.sortOrder,
    icon_name: c.iconName,
    is_active: c.isActive,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}
