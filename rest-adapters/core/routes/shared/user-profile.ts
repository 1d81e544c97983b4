import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';
import type { ReviewMerchantRegistrationMutation, UserProfileFieldsFragment } from '@rest-adapters/generated/operations';

const S = Nullable(Type.String());
/** core-api.md §2 Profile: the user's fields and the merchant snapshot (all null without a merchant or registration). */
export const ProfileBody = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    full_name: S,
    display_name: S,
    nik: S,
    gender: Nullable(Type.Union([Type.Literal('male'), Type.Literal('female')])),
    address_line: S,
    avatar_url: S,
    phone: Type.String({ description: 'E.164.' }),
    phone_verified: Type.Boolean(),
    email: S,
    email_verified: Type.Boolean(),
    merchant_id: Nullable(Type.String({ format: 'uuid', description: 'The merchant, or the registration request while in progress.' })),
    merchant_name: S,
    merchant_status: Nullable(
      Type.String({ description: 'pending, pending_review (registration) or draft, inactive, active, suspended.' }),
    ),
    merchant_contact_phone: S,
    merchant_contact_email: S,
    merchant_address_line: S,
    merchant_province_name: S,
    merchant_city_name: S,
    merchant_district_name: S,
    merchant_subdistrict_name: S,
    merchant_postal_code: S,
    merchant_business_type_id: Nullable(Type.Integer()),
    merchant_business_type_name: S,
    merchant_business_scale_name: S,
    merchant_average_monthly_revenue: Nullable(Type.Integer()),
    merchant_employee_count: Nullable(Type.Integer()),
    merchant_reviewed_at: Nullable(Type.String({ format: 'date-time' })),
    merchant_device_fee_service_accepted: Nullable(Type.Boolean()),
    merchant_terms_of_service_accepted: Nullable(Type.Boolean()),
    merchant_privacy_policy_accepted: Nullable(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ProfileBody = Static<typeof ProfileBody>;

/** The UserProfileFields fragment (user-profile.fragment.graphql) as the documented profile. */
export function toProfileBody(p: UserProfileFieldsFragment): ProfileBody {
  const m = p.merchant;
  return {
    user_id: p.userId,
    full_name: p.fullName,
    display_name: p.displayName,
    nik: p.nik,
    gender: p.gender as ProfileBody['gender'],
    address_line: p.addressLine,
    avatar_url: p.avatarUrl,
    phone: p.phone,
    phone_verified: p.phoneVerified,
    email: p.email,
    email_verified: p.emailVerified,
    merchant_id: m?.id ?? null,
    merchant_name: m?.name ?? null,
    merchant_status: m?.status ?? null,
    merchant_contact_phone: m?.contactPhone ?? null,
    merchant_contact_email: m?.contactEmail ?? null,
    merchant_address_line: m?.addressLine ?? null,
    merchant_province_name: m?.provinceName ?? null,
    merchant_city_name: m?.cityName ?? null,
    merchant_district_name: m?.districtName ?? null,
    merchant_subdistrict_name: m?.subdistrictName ?? null,
    merchant_postal_code: m?.postalCode ?? null,
    merchant_business_type_id: m?.businessTypeId ?? null,
    merchant_business_type_name: m?.businessTypeName ?? null,
    merchant_business_scale_name: m?.businessScaleName ?? null,
    merchant_average_monthly_revenue: m?.averageMonthlyRevenue ?? null,
    merchant_employee_count: m?.employeeCount ?? null,
    merchant_reviewed_at: m?.reviewedAt ?? null,
    merchant_device_fee_service_accepted: m?.deviceFeeServiceAccepted ?? null,
    merchant_terms_of_service_accepted: m?.termsOfServiceAccepted ?? null,
    merchant_privacy_policy_accepted: m?.privacyPolicyAccepted ?? null,
  };
}

/** The internal decisions' answer (core-api.md §4): status, the request or merchant, and its user's profile (the same selection in all three). */
export type ReviewResult = ReviewMerchantRegistrationMutation['reviewMerchantRegistration'];

const DecidedRef = Type.Object({ id: Type.String({ format: 'uuid' }), merchant_status: Type.String() }, { additionalProperties: false });

export const RequestDecisionResponse = Type.Object(
  { status: Type.String(), request: DecidedRef, profile: Nullable(ProfileBody) },
  { additionalProperties: false },
);
export const MerchantDecisionResponse = Type.Object(
  { status: Type.String(), merchant: DecidedRef, profile: Nullable(ProfileBody) },
  { additionalProperties: false },
);

export function toRequestDecision(r: ReviewResult): Static<typeof RequestDecisionResponse> {
  return { status: r.status, request: { id: r.id, merchant_status: r.status }, profile: r.profile ? toProfileBody(r.profile) : null };
}

export function toMerchantDecision(r: ReviewResult): Static<typeof MerchantDecisionResponse> {
  return { status: r.status, merchant: { id: r.id, merchant_status: r.status }, profile: r.profile ? toProfileBody(r.profile) : null };
}
