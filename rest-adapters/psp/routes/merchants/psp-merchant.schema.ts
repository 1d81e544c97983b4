import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

/** The merchant object of psp-api.md §2, as every lookup returns it. */
export const PspMerchant = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    merchant_name: Type.String(),
    legal_name: Nullable(Type.String()),
    nmid: Nullable(Type.String()),
    bank_code: Nullable(Type.String()),
    category_code: Nullable(Type.String({ description: 'ISO 18245 MCC.' })),
    category_name: Nullable(Type.String()),
    phone: Nullable(Type.String({ description: 'E.164.' })),
    email: Nullable(Type.String()),
    npwp: Nullable(Type.String()),
    address: Type.Object({
      line: Nullable(Type.String()),
      city: Nullable(Type.String()),
      province: Nullable(Type.String()),
      postal_code: Nullable(Type.String()),
      country: Type.String(),
    }),
    status: Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('suspended'), Type.Literal('deleted')]),
    kyc_status: Type.String({ description: 'verified once activated; pending, expired or rejected otherwise.' }),
    kyc_verified_at: Nullable(Type.String({ format: 'date-time' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'PspMerchant', title: 'PspMerchant' },
);
export type PspMerchant = Static<typeof PspMerchant>;

/** Outlets of a merchant (include_outlets): the spec leaves their fields open; these are ours. */
/**
 * The account the bank pays an outlet's settlements into (partner-api.md §1, docs/decisions/0238-settlement-accounts.md):
 * the outlet's own, else the merchant's corporate account. A change requested by the merchant shows here only once its
 * cooling-off has passed.
 */
export const PspSettlementAccount = Type.Object(
  {
    source: Type.Union([Type.Literal('outlet'), Type.Literal('corporate')], {
      description:
        "outlet: the outlet's own account; corporate: the merchant's pooled account, which an outlet without its own falls back to.",
    }),
    bank_code: Type.String({ description: "The receiving bank's 3-digit code (Bank Indonesia's sandi bank, e.g. 014)." }),
    account_number: Type.String({ description: 'The account number, 6 to 20 digits.' }),
    holder_name: Type.String({ description: "The account holder's name." }),
    effective_since: Type.String({ format: 'date-time', description: 'Since when this account is the one to pay into.' }),
  },
  { $id: 'PspSettlementAccount', title: 'PspSettlementAccount' },
);
export type PspSettlementAccount = Static<typeof PspSettlementAccount>;

export const PspOutlet = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    code: Type.String(),
    name: Type.String(),
    nmid: Nullable(Type.String()),
    mid: Nullable(Type.String()),
    nmid_status: Type.String({ description: 'active or suspended.' }),
    is_default: Type.Boolean(),
    address: Type.Object({
      line: Nullable(Type.String()),
      city: Nullable(Type.String()),
      province: Nullable(Type.String()),
      postal_code: Nullable(Type.String()),
    }),
    settlement_account: Type.Union([Type.Ref(PspSettlementAccount), Type.Null()], {
      description: 'The effective settlement account of the outlet (its own, else the corporate one); null when the merchant has set none.',
    }),
  },
  { $id: 'PspOutlet', title: 'PspOutlet' },
);
export type PspOutlet = Static<typeof PspOutlet>;

/**
 * An owner of the merchant (include_owners=true): the spec leaves the fields open; these are ours. The name is in
 * full, the person's own login phone and email are masked (the merchant's business phone and email are in the
 * merchant object). docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md.
 */
export const PspOwner = Type.Object(
  {
    user_id: Type.String({ format: 'uuid', description: "The owner's user id, stable across lookups." }),
    full_name: Nullable(Type.String({ description: 'As the owner entered it; null when not given yet.' })),
    phone: Type.String({ description: 'E.164, masked: country code and operator prefix, *, the last 4 digits (+62812****7890).' }),
    email: Nullable(Type.String({ description: 'Masked: first character, ***, @ and the domain (b***@example.com).' })),
    role: Type.String({ description: 'owner (the corporate role).' }),
    since: Type.String({ format: 'date-time', description: 'When the person became an owner.' }),
  },
  { $id: 'PspOwner', title: 'PspOwner' },
);
export type PspOwner = Static<typeof PspOwner>;

/** Detail, by-NMID: the merchant with device fields, and outlets and owners filled only when asked for. */
export const PspMerchantDetail = Type.Object({
  merchant: Type.Intersect([
    Type.Ref(PspMerchant),
    Type.Object({ device_model: Nullable(Type.String()), device_status: Nullable(Type.String()) }),
  ]),
  outlets: Type.Array(Type.Ref(PspOutlet)),
  owners: Type.Array(Type.Ref(PspOwner), {
    description: 'The merchant’s owners, oldest first, when include_owners=true; otherwise empty.',
  }),
});
export type PspMerchantDetail = Static<typeof PspMerchantDetail>;

export const IncludeQuery = {
  include_outlets: Type.Boolean({ default: false }),
  include_owners: Type.Boolean({ default: false }),
};

export const PSP_SCHEMAS = [PspMerchant, PspSettlementAccount, PspOutlet, PspOwner];
