import { type Static, Type } from '@sinclair/typebox';
import { PspMerchant, PspOutlet } from '../psp-merchant.schema';

export const ListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Opaque; from pagination.next_cursor.' })),
    updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'Merchants with updated_at ≥ this.' })),
    category_code: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
    include_outlets: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuery>;

export const ListResponse = Type.Object({
  items: Type.Array(Type.Intersect([Type.Ref(PspMerchant), Type.Object({ outlets: Type.Optional(Type.Array(Type.Ref(PspOutlet))) })])),
  pagination: Type.Object({ next_cursor: Type.Union([Type.String(), Type.Null()]), has_more: Type.Boolean() }),
  meta: Type.Object({ returned_count: Type.Integer(), active_only: Type.Boolean() }),
});
export type ListResponse = Static<typeof ListResponse>;
