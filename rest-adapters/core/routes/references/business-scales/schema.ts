import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

export const BusinessScaleItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  modal_usaha_min: Type.Integer(),
  modal_usaha_max: Nullable(Type.Integer()),
  omzet_per_bulan_min: Type.Integer(),
  omzet_per_bulan_max: Nullable(Type.Integer()),
  jumlah_karyawan_min: Type.Integer(),
  jumlah_karyawan_max: Nullable(Type.Integer()),
  sort_order: Type.Integer(),
});

export const BusinessScalesResponse = Type.Object({ items: Type.Array(BusinessScaleItem) });
export type BusinessScalesResponse = Static<typeof BusinessScalesResponse>;
