import { type Static, Type } from '@sinclair/typebox';

export const DistrictItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
});

export const DistrictsQuery = Type.Object(
  { city_id: Type.Integer({ minimum: 1, description: 'Required.' }) },
  { additionalProperties: false },
);
export type DistrictsQuery = Static<typeof DistrictsQuery>;

export const DistrictsResponse = Type.Object({ items: Type.Array(DistrictItem) });
export type DistrictsResponse = Static<typeof DistrictsResponse>;
