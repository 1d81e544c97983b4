import { type Static, Type } from '@sinclair/typebox';

export const PostalCodeItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  label: Type.String({ description: '"<code> - <area name>".' }),
});

export const PostalCodesQuery = Type.Object(
  { subdistrict_id: Type.Integer({ minimum: 1, description: 'Required.' }) },
  { additionalProperties: false },
);
export type PostalCodesQuery = Static<typeof PostalCodesQuery>;

export const PostalCodesResponse = Type.Object({ items: Type.Array(PostalCodeItem) });
export type PostalCodesResponse = Static<typeof PostalCodesResponse>;
