import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { userAuth } from '@rest-adapters/core/auth/user-auth';
import { toProfileBody } from '@rest-adapters/core/routes/shared/user-profile';
import { SubmitMerchantRegistrationDocument } from '@rest-adapters/generated/operations';
import { RegistrationBody, RegistrationResponse } from './schema';

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
