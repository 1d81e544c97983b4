import { type Static, Type } from '@sinclair/typebox';

export const ProvinceItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
});

export const ProvincesResponse = Type.Object({ items: Type.Array(ProvinceItem) });
export type ProvincesResponse = Static<typeof ProvincesResponse>;
