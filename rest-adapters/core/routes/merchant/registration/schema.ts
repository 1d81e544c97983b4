import { Type } from '@sinclair/typebox';
import { INDONESIAN_PHONE_FORMS } from '@lib/phone/indonesian-phone';
import { Nullable } from '@lib/rest/schema-helpers';
import { ProfileBody } from '@rest-adapters/core/routes/shared/user-profile';

const Text = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));
const Id = Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 32 }), Type.Integer()])));

/**
 * core-api.md §2 registration request. merchant_type, business_type_code/_name and business_scale_code/_name are
 * accepted but derived by the service (rules 2 and 3), so what the app sends for them is not kept.
 */
export const RegistrationBody = Type.Object({
  merchant_name: Type.String({ minLength: 1, maxLength: 200 }),
  business_entity_type: Type.Union([Type.Literal('Perseorangan'), Type.Literal('Badan Usaha')]),
  merchant_type: Text(200),
  business_type_id: Type.Integer({ minimum: 1 }),
  business_type_code: Text(64),
  business_type_name: Text(200),
  average_monthly_revenue: Type.Integer({ minimum: 0, maximum: 1_000_000_000_000_000, description: 'Whole rupiah.' }),
  employee_count: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
  business_scale_code: Text(64),
  business_scale_name: Text(200),
  referral_code: Text(64),
  contact_phone: Type.String({ minLength: 1, maxLength: 32, description: INDONESIAN_PHONE_FORMS }),
  contact_email: Text(254),
  address_line: Text(300),
  country_id: Id,
  country_name: Text(200),
  province_id: Id,
  province_name: Text(200),
  city_id: Id,
  city_name: Text(200),
  district_id: Id,
  district_name: Text(200),
  subdistrict_id: Id,
  subdistrict_name: Text(200),
  postal_code_id: Id,
  postal_code: Text(5),
  review_notes: Text(500),
  device_fee_service_accepted: Type.Optional(Nullable(Type.Boolean())),
  terms_of_service_accepted: Type.Optional(Nullable(Type.Boolean())),
  privacy_policy_accepted: Type.Optional(Nullable(Type.Boolean())),
});

export const RegistrationResponse = Type.Object(
  {
    status: Type.Literal('pending'),
    merchant: Type.Object(
      {
        id: Type.String({ format: 'uuid', description: 'The registration request id; the approved merchant keeps it.' }),
        merchant_code: Type.String(),
        merchant_name: Type.String(),
        business_type_name: Type.String(),
        average_monthly_revenue: Type.Integer(),
        employee_count: Type.Integer(),
        business_scale_name: Type.String(),
        merchant_status: Type.Literal('pending'),
        contact_phone: Type.String(),
      },
      { additionalProperties: false },
    ),
    profile: ProfileBody,
  },
  { additionalProperties: false },
);
