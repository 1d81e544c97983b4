import { Field, ObjectType } from 'type-graphql';
import { AppUserType } from '../member/member.type';
import { MerchantType } from '../merchant/merchant.type';
import { MerchantMembershipType } from '../user/membership.type';

@ObjectType('Viewer', { description: 'The calling app user, the merchant they act for and their role there.' })
export class ViewerType {
  @Field(() => AppUserType, { description: 'The signed-in user.' })
  user!: AppUserType;

  @Field(() => MerchantMembershipType, { nullable: true, description: 'Null for a user who belongs to no merchant.' })
  membership!: MerchantMembershipType | null;

  @Field(() => MerchantType, {
    nullable: true,
    description: 'The merchant the user acts for (active preferred); null without a membership.',
  })
  merchant!: MerchantType | null;
}
