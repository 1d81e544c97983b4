import { Field, ID, InputType } from 'type-graphql';

@InputType('ChangeMerchantStatusInput')
export class ChangeMerchantStatusInput {
  @Field(() => ID)
  merchantId!: string;

  @Field({ description: 'active (approval or reactivation), suspended or deleted.' })
  targetStatus!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Required to suspend (kyc_expired, violation, operator_action or inactivity) and to delete (merchant_request or the operator’s text); optional otherwise.',
  })
  reason?: string | null;
}

@InputType('MerchantAddressInput', { description: 'Only the parts given change.' })
export class MerchantAddressInput {
  @Field(() => String, { nullable: true })
  line?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  province?: string | null;

  @Field(() => String, { nullable: true, description: 'Five digits.' })
  postalCode?: string | null;
}

@InputType('UpdateMerchantProfileInput', { description: 'Absent or null fields are kept; given ones must not be empty.' })
export class UpdateMerchantProfileInput {
  @Field(() => ID)
  merchantId!: string;

  @Field(() => String, { nullable: true, description: 'Trade name.' })
  name?: string | null;

  @Field(() => String, { nullable: true })
  legalName?: string | null;

  @Field(() => MerchantAddressInput, { nullable: true })
  address?: MerchantAddressInput | null;

  @Field(() => String, { nullable: true, description: 'Sent to the bank as change.reason; default profile_updated.' })
  reason?: string | null;
}
