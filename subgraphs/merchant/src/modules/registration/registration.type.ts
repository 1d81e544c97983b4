import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { UserProfileType } from '../user/profile.type';

@ObjectType('MerchantReviewResult', { description: 'A registration or merchant after an internal decision, with its user’s profile.' })
export class MerchantReviewResultType {
  @Field(() => ID, { description: 'The request id (review) or the merchant id (approve, status); approval keeps the id.' })
  id!: string;

  @Field({ description: 'pending_review, or the merchant status.' })
  status!: string;

  @Field(() => UserProfileType, {
    nullable: true,
    description: 'The applicant, or the merchant’s owner; null for a merchant without an owner account.',
  })
  profile!: UserProfileType | null;
}

@ObjectType('MerchantRegistrationRequest', { description: 'An open registration request, as the operators’ review queue shows it.' })
export class MerchantRegistrationRequestType {
  @Field(() => ID, { description: 'Kept as the merchant id on approval.' })
  id!: string;

  @Field({ description: 'pending or pending_review.' })
  status!: string;

  @Field({ description: 'Reserved MRC-… code, kept on approval.' })
  merchantCode!: string;

  @Field()
  merchantName!: string;

  @Field()
  businessEntityType!: string;

  @Field()
  businessTypeName!: string;

  @Field()
  businessScaleName!: string;

  @Field(() => SafeIntResolver)
  averageMonthlyRevenue!: number;

  @Field(() => Int)
  employeeCount!: number;

  @Field(() => String, { nullable: true })
  referralCode!: string | null;

  @Field({ description: 'E.164.' })
  applicantPhone!: string;

  @Field(() => String, { nullable: true })
  reviewNotes!: string | null;

  @Field(() => DateTimeResolver)
  submittedAt!: Date;
}
