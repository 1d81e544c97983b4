import { type Static, Type } from '@sinclair/typebox';

export const CityItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String({ description: 'Without the Kota/Kabupaten prefix.' }),
  type: Type.String({ description: 'Kabupaten, Kota, Kabupaten Administrasi or Kota Administrasi.' }),
});

export const CitiesQuery = Type.Object(
  { province_id: Type.Integer({ minimum: 1, description: 'Required.' }) },
  { additionalProperties: false },
);
export type CitiesQuery = Static<typeof CitiesQuery>;

export const CitiesResponse = Type.Object({ items: Type.Array(CityItem) });
export type CitiesResponse = Static<typeof CitiesResponse>;
