import { Field, ID, ObjectType } from 'type-graphql';
import { MerchantType } from '../merchant/merchant.type';

@ObjectType('MerchantMembership', { description: "The calling user's membership of a merchant." })
export class MerchantMembershipType {
  @Field(() => MerchantType)
  merchant!: MerchantType;

  @Field({ description: 'owner, admin, staff or viewer.' })
  role!: string;

  @Field(() => [ID], { description: 'Outlets the user may act on; empty means all outlets.' })
  outletIds!: string[];

  @Field(() => ID, { nullable: true, description: 'The one device a staff member is limited to, if any.' })
  terminalId!: string | null;
}
