import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('MerchantSnapshot', {
  description:
    "The merchant a user has or is registering (core-api.md §2 'active or in progress'): a merchant, else the open registration.",
})
export class MerchantSnapshotType {
  @Field(() => ID, { description: 'The merchant id, or the registration request id while in progress (approval keeps it).' })
  id!: string;

  @Field({ description: 'MRC-…; reserved at registration.' })
  merchantCode!: string;

  @Field()
  name!: string;

  @Field({ description: 'pending or pending_review (a registration), else the merchant status.' })
  status!: string;

  @Field({ description: 'True for an open registration request.' })
  isRegistration!: boolean;

  @Field(() => String, { nullable: true })
  businessEntityType!: string | null;

  @Field(() => String, { nullable: true, description: 'E.164.' })
  contactPhone!: string | null;

  @Field(() => String, { nullable: true })
  contactEmail!: string | null;

  @Field(() => String, { nullable: true })
  addressLine!: string | null;

  @Field(() => String, { nullable: true })
  provinceName!: string | null;

  @Field(() => String, { nullable: true })
  cityName!: string | null;

  @Field(() => String, { nullable: true })
  districtName!: string | null;

  @Field(() => String, { nullable: true })
  subdistrictName!: string | null;

  @Field(() => String, { nullable: true })
  postalCode!: string | null;

  @Field(() => Int, { nullable: true })
  businessTypeId!: number | null;

  @Field(() => String, { nullable: true })
  businessTypeName!: string | null;

  @Field(() => String, { nullable: true })
  businessScaleName!: string | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Whole rupiah.' })
  averageMonthlyRevenue!: number | null;

  @Field(() => Int, { nullable: true })
  employeeCount!: number | null;

  @Field(() => DateTimeResolver, { nullable: true })
  reviewedAt!: Date | null;

  @Field()
  deviceFeeServiceAccepted!: boolean;

  @Field()
  termsOfServiceAccepted!: boolean;

  @Field()
  privacyPolicyAccepted!: boolean;
}

@ObjectType('UserProfile', { description: 'An app user and the merchant it has or is registering.' })
export class UserProfileType {
  @Field(() => ID)
  userId!: string;

  @Field(() => String, { nullable: true })
  fullName!: string | null;

  @Field(() => String, { nullable: true })
  displayName!: string | null;

  @Field(() => String, { nullable: true, description: 'National ID number, 16 digits.' })
  nik!: string | null;

  @Field(() => String, { nullable: true, description: 'male or female.' })
  gender!: string | null;

  @Field(() => String, { nullable: true })
  addressLine!: string | null;

  @Field(() => String, { nullable: true })
  avatarUrl!: string | null;

  @Field({ description: 'E.164.' })
  phone!: string;

  @Field()
  phoneVerified!: boolean;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field()
  emailVerified!: boolean;

  @Field(() => MerchantSnapshotType, { nullable: true })
  merchant!: MerchantSnapshotType | null;
}
