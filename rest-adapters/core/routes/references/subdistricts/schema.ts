import { type Static, Type } from '@sinclair/typebox';

export const SubdistrictItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'Desa, Kelurahan or Desa Adat.' }),
  lat: Type.Union([Type.Number(), Type.Null()], { description: 'Null when unknown.' }),
  lng: Type.Union([Type.Number(), Type.Null()], { description: 'Null when unknown.' }),
});

export const SubdistrictsQuery = Type.Object(
  { district_id: Type.Integer({ minimum: 1, description: 'Required.' }) },
  { additionalProperties: false },
);
export type SubdistrictsQuery = Static<typeof SubdistrictsQuery>;

export const SubdistrictsResponse = Type.Object({ items: Type.Array(SubdistrictItem) });
export type SubdistrictsResponse = Static<typeof SubdistrictsResponse>;
