import { type Static, Type } from '@sinclair/typebox';
import { HttpError } from '@lib/rest/error-body';
import { Nullable } from '@lib/rest/schema-helpers';
import type { RouteRuntime } from '@lib/rest/route';
import type { FixedOperationDocument } from '@lib/rest/operation';
import type { PartnerOutletFieldsFragment } from '@rest-adapters/generated/operations';
import type { PartnerPrincipal } from '@rest-adapters/partner/auth/partner-auth';
import { scopedTo } from '../partner-data';

/**
 * Outlet payloads of the partner API (partner-api.md §1 multi-outlet model; §2 leaves them open, designed in
 * docs/decisions/0037-partner-bodies-and-outlet-endpoints.md). The identifiers §1 names for outlets and devices (nmid,
 * mid, tid, serial_number) are returned; the raw device id, the QRIS payload and settlement accounts never are.
 * Both contracts share these objects; their times are written by the partner adapter's rule (A: +07:00, B: UTC).
 */
export const OutletParams = Type.Object(
  { merchant_id: Type.String({ minLength: 1, maxLength: 64 }), outlet_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const PartnerOutlet = Type.Object(
  {
    outlet_id: Type.String({ format: 'uuid' }),
    merchant_id: Type.String({ format: 'uuid' }),
    outlet_code: Type.String(),
    outlet_name: Type.String(),
    is_default: Type.Boolean({ description: 'The transparent outlet of a single-counter merchant (default_outlet_id).' }),
    nmid: Nullable(Type.String({ description: 'National merchant ID of this outlet; null before assignment.' })),
    nmid_status: Nullable(Type.Union([Type.Literal('active'), Type.Literal('suspended')], { description: 'null without an NMID.' })),
    mid: Nullable(Type.String({ description: 'Acquirer merchant ID.' })),
    address_line: Nullable(Type.String()),
    city: Nullable(Type.String()),
    province: Nullable(Type.String()),
    postal_code: Nullable(Type.String()),
    device_count: Type.Integer({ description: 'Devices at the outlet that are not inactive.' }),
    created_at: Type.String({ format: 'date-time', description: 'Contract A: +07:00; B: UTC.' }),
  },
  { additionalProperties: false, title: 'PartnerOutlet' },
);
export type PartnerOutlet = Static<typeof PartnerOutlet>;

export type OutletData = PartnerOutletFieldsFragment;

export function toPartnerOutlet(merchantId: string, o: OutletData): PartnerOutlet {
  return {
    outlet_id: o.id,
    merchant_id: merchantId,
    outlet_code: o.code,
    outlet_name: o.name,
    is_default: o.isDefault,
    nmid: o.nmid,
    nmid_status: o.nmid ? (o.nmidStatus as 'active' | 'suspended') : null,
    mid: o.mid,
    address_line: o.addressLine,
    city: o.city,
    province: o.province,
    postal_code: o.postalCode,
    device_count: o.terminals.filter((t) => t.status !== 'inactive').length,
    created_at: o.createdAt,
  };
}

/**
 * Runs an outlet operation (`partnerMerchants(merchantIds: [$merchantId]) { merchant { … } }`) as the partner
 * narrowed to the merchant: the merchant subgraph answers nothing outside the partner's scope (403), and the
 * outlet and transaction subgraphs require the merchant in merchantIds.
 */
export async function loadScopedMerchant<M, V extends { merchantId: string }>(
  runtime: RouteRuntime,
  principal: PartnerPrincipal,
  operation: FixedOperationDocument<{ partnerMerchants: { merchant: M }[] }, V>,
  merchantId: string,
  variables: NoInfer<Omit<V, 'merchantId'>>,
): Promise<M> {
  const { partnerMerchants } = await runtime.execute(operation, { merchantId, ...variables } as V, {
    acting: scopedTo(principal, [merchantId]),
  });
  if (!partnerMerchants[0]) throw new HttpError(403, 'forbidden', 'the merchant is outside the partner’s scope');
  return partnerMerchants[0].merchant;
}

/** The live outlet of the merchant with this id, else 404 `not_found` (another merchant's, deleted, unknown). */
export function outletOf<O extends { id: string }>(outlets: O[], outletId: string): O {
  const outlet = outlets.find((o) => o.id.toLowerCase() === outletId.toLowerCase());
  if (!outlet) throw new HttpError(404, 'not_found', 'no such outlet of this merchant');
  return outlet;
}
