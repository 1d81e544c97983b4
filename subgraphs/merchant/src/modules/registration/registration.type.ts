import { Field, ID, ObjectType } from 'type-graphql';
import { UserProfileType } from '../user/profile.type';

@ObjectType('MerchantReviewResult', { description: 'A registration or merchant after an internal decision, with its user’s profile.' })
export class MerchantReviewResultType {
  @Field(() => ID, { description: 'The request id (review) or the merchant id (approve, status); approval keeps the id.' })
  id!: string;

  @Field({ description: 'pending_review, or the merchant status.' })
  status!: string;

  @Field(() => UserProfileType, { nullable: true, description: 'The applicant, or the merchant’s owner; null for a merchant without an owner account.' })
  profile!: UserProfileType | null;
}
