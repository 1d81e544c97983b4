import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { toProfileBody } from '@rest-adapters/core/routes/shared/user-profile';
import { SubmitMerchantRegistrationDocument } from '@rest-adapters/generated/operations';
import { RegistrationBody, RegistrationResponse } from './schema';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { REGISTRATION_MERCHANT, REGISTRATION_PROFILE } from '@rest-adapters/core/examples';

const idOf = (value: string | number | null | undefined) => (value === null || value === undefined ? null : String(value));

/**
 * core-api.md §2/§4: a registration request (`pending`, not a merchant yet) with rules 1–5. One open request
 * per user: a second is 409 `registration_exists`; a user who already has a merchant is 409 `merchant_exists`.
 */
export default defineRoute({
  method: 'POST',
  url: '/merchant/registration',
  summary: 'Register a merchant for review',
  tags: ['core: merchant'],
  errors: { 409: ['registration_exists', 'merchant_exists'] },
  schema: { body: RegistrationBody, response: { 200: RegistrationResponse, ...errorResponses(400, 401, 409) } },
  operationId: 'SubmitMerchantRegistration',
  examples: {
    body: {
      merchant_name: REGISTRATION_MERCHANT.merchant_name,
      business_entity_type: 'Perseorangan',
      business_type_id: 1,
      average_monthly_revenue: 27_000_000,
      employee_count: 2,
      referral_code: DEMO.partner.referralCode,
      contact_phone: '081311112222',
      contact_email: 'baksodarto@warung.example',
      address_line: 'Jl. Cideng Timur No. 12',
      province_id: 31,
      city_id: 3171,
      district_id: 317101,
      subdistrict_id: 3171011002,
      postal_code: '10150',
      device_fee_service_accepted: true,
      terms_of_service_accepted: true,
      privacy_policy_accepted: true,
    },
    responses: {
      200: {
        status: 'pending',
        merchant: REGISTRATION_MERCHANT,
        profile: REGISTRATION_PROFILE,
      },
    },
    errors: {
      registration_exists: 'the user already has an open merchant registration',
      merchant_exists: 'the user already has a merchant',
    },
  },
  authenticate: userAuth,
  run: async ({ body }, { execute }) => {
    const { submitMerchantRegistration: profile } = await execute(SubmitMerchantRegistrationDocument, {
      input: {
        merchantName: body.merchant_name,
        businessEntityType: body.business_entity_type,
        businessTypeId: body.business_type_id,
        averageMonthlyRevenue: body.average_monthly_revenue,
        employeeCount: body.employee_count,
        referralCode: body.referral_code ?? null,
        contactPhone: body.contact_phone,
        contactEmail: body.contact_email ?? null,
        addressLine: body.address_line ?? null,
        countryId: idOf(body.country_id),
        countryName: body.country_name ?? null,
        provinceId: idOf(body.province_id),
        provinceName: body.province_name ?? null,
        cityId: idOf(body.city_id),
        cityName: body.city_name ?? null,
        districtId: idOf(body.district_id),
        districtName: body.district_name ?? null,
        subdistrictId: idOf(body.subdistrict_id),
        subdistrictName: body.subdistrict_name ?? null,
        postalCodeId: idOf(body.postal_code_id),
        postalCode: body.postal_code ?? null,
        reviewNotes: body.review_notes ?? null,
        deviceFeeServiceAccepted: body.device_fee_service_accepted ?? false,
        termsOfServiceAccepted: body.terms_of_service_accepted ?? false,
        privacyPolicyAccepted: body.privacy_policy_accepted ?? false,
      },
    });
    const m = profile.merchant!;
    return {
      status: 'pending' as const,
      merchant: {
        id: m.id,
        merchant_code: m.merchantCode,
        merchant_name: m.name,
        business_type_name: m.businessTypeName!,
        average_monthly_revenue: m.averageMonthlyRevenue!,
        employee_count: m.employeeCount!,
        business_scale_name: m.businessScaleName!,
        merchant_status: 'pending' as const,
        contact_phone: m.contactPhone!,
      },
      profile: toProfileBody(profile),
    };
  },
});
