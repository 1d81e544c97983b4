import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { PosOutletFieldsFragment } from '@rest-adapters/generated/operations';

/** core-api.md §2 Outlet. */
export const PosOutlet = Type.Object({
  id: Type.String({ format: 'uuid' }),
  merchant_id: Type.String({ format: 'uuid' }),
  code: Type.String(),
  name: Type.String(),
  address_line: Nullable(Type.String()),
  city: Nullable(Type.String()),
  province: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  nmid: Nullable(Type.String()),
  qris_static_payload: Nullable(Type.String()),
  is_active: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type PosOutlet = Static<typeof PosOutlet>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function toPosOutlet(o: PosOutletFieldsFragment): PosOutlet {
  return {
    id: o.id,
    merchant_id: o.merchantId,
    code: o.code,
    name: o.name,
    address_line: o.addressLine,
    city: o.city,
    province: o.province,
    phone: o.phone,
    nmid: o.nmid,
    qris_static_payload: o.qrisStaticPayload,
    is_active: o.isActive,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
  };
}
