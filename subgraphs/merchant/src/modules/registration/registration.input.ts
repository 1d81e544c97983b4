import { SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';

/**
 * POST /merchant/registration (core-api.md §2). merchant_type, business_type_code/_name and business_scale_code/
 * _name are derived here, so the app's values for them are not taken.
 */
@InputType('SubmitMerchantRegistrationInput')
export class SubmitMerchantRegistrationInput {
  @Field()
  merchantName!: string;

  @Field({ description: 'Perseorangan or Badan Usaha.' })
  businessEntityType!: string;

  @Field(() => Int, { description: 'An active, QRIS-enabled business type (GET /references/business-types).' })
  businessTypeId!: number;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah, ≥ 0.' })
  averageMonthlyRevenue!: number;

  @Field(() => Int, { description: '≥ 0.' })
  employeeCount!: number;

  @Field(() => String, {
    nullable: true,
    description: 'An active partner’s code links the merchant to it; anything else is a direct registration.',
  })
  referralCode?: string | null;

  @Field({ description: 'Indonesian phone number (08…, 628…, +628…).' })
  contactPhone!: string;

  @Field(() => String, { nullable: true })
  contactEmail?: string | null;

  @Field(() => String, { nullable: true })
  addressLine?: string | null;

  @Field(() => String, { nullable: true })
  countryId?: string | null;

  @Field(() => String, { nullable: true })
  countryName?: string | null;

  @Field(() => String, { nullable: true })
  provinceId?: string | null;

  @Field(() => String, { nullable: true })
  provinceName?: string | null;

  @Field(() => String, { nullable: true })
  cityId?: string | null;

  @Field(() => String, { nullable: true })
  cityName?: string | null;

  @Field(() => String, { nullable: true })
  districtId?: string | null;

  @Field(() => String, { nullable: true })
  districtName?: string | null;

  @Field(() => String, { nullable: true })
  subdistrictId?: string | null;

  @Field(() => String, { nullable: true })
  subdistrictName?: string | null;

  @Field(() => String, { nullable: true })
  postalCodeId?: string | null;

  @Field(() => String, { nullable: true, description: 'Five digits.' })
  postalCode?: string | null;

  @Field(() => String, { nullable: true, description: 'The applicant’s note to the reviewer.' })
  reviewNotes?: string | null;

  @Field({ defaultValue: false })
  deviceFeeServiceAccepted!: boolean;

  @Field({ defaultValue: false })
  termsOfServiceAccepted!: boolean;

  @Field({ defaultValue: false })
  privacyPolicyAccepted!: boolean;
}

@InputType('MerchantRegistrationDecisionInput', { description: 'The request by id (preferred) or by its user’s phone.' })
export class MerchantRegistrationDecisionInput {
  @Field(() => ID, { nullable: true })
  requestId?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => String, { nullable: true })
  reviewNotes?: string | null;

  @Field(() => ID, { nullable: true })
  reviewedByUserId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Approve only: the acquiring bank of the new merchant; without it none until an operator assigns one.',
  })
  bankCode?: string | null;
}

@InputType('ReviewMerchantStatusInput', { description: 'POST /internal/merchant/status: the merchant by id or by its owner’s phone.' })
export class ReviewMerchantStatusInput {
  @Field(() => ID, { nullable: true })
  merchantId?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field({ description: 'active, suspended or deleted (core-api.md §3).' })
  targetStatus!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Suspension reason sent to the bank (kyc_expired, violation, operator_action, inactivity); default operator_action.',
  })
  reason?: string | null;

  @Field(() => String, { nullable: true })
  reviewNotes?: string | null;

  @Field(() => ID, { nullable: true })
  reviewedByUserId?: string | null;
}
