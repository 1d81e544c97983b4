import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('AppUser', { description: 'An app user (a person with a phone login).' })
export class AppUserType {
  @Field(() => ID, { description: 'User id (UUID).' })
  id!: string;

  @Field({ description: 'E.164.' })
  phone!: string;

  @Field(() => String, { nullable: true, description: "The user's full name as entered; null until given." })
  fullName!: string | null;

  @Field(() => String, { nullable: true, description: 'Name shown in the app; the full name when not set.' })
  displayName!: string | null;

  @Field(() => String, { nullable: true, description: 'Verified or pending email address; null when none.' })
  email!: string | null;

  @Field({ description: 'Whether the email address was confirmed with a one-time code.' })
  emailVerified!: boolean;
}

@ObjectType('MerchantMember', { description: 'A person’s live membership of a merchant with an enterprise role.' })
export class MerchantMemberType {
  @Field(() => ID, { description: 'Membership id (UUID).' })
  id!: string;

  @Field(() => AppUserType, { description: "The member's user account." })
  user!: AppUserType;

  @Field({ description: 'owner, admin, staff or viewer.' })
  role!: string;

  @Field(() => [ID], { description: 'Outlets the member may act on; empty means all outlets.' })
  outletIds!: string[];

  @Field(() => ID, { nullable: true, description: 'The one device a staff member is limited to, if any.' })
  terminalId!: string | null;

  @Field(() => DateTimeResolver, { description: 'When the person became a member.' })
  createdAt!: Date;
}

@InputType('InviteMemberInput')
export class InviteMemberInput {
  @Field({ description: 'Indonesian phone: 08…, 628… or +628…; the user is created when the phone has no account yet.' })
  phone!: string;

  @Field({ description: 'admin, staff or viewer (owners may also add an owner).' })
  role!: string;

  @Field(() => [ID], { defaultValue: [], description: 'admin: any (empty = all); staff: exactly one; viewer: one or none (= all).' })
  outletIds!: string[];

  @Field(() => ID, { nullable: true, description: 'staff only: the one device of the outlet the member may use.' })
  terminalId?: string | null;
}

@InputType('UpdateMemberInput')
export class UpdateMemberInput {
  @Field(() => ID)
  memberId!: string;

  @Field(() => String, { nullable: true, description: 'Unchanged when omitted.' })
  role?: string | null;

  @Field(() => [ID], { nullable: true, description: 'Unchanged when omitted.' })
  outletIds?: string[] | null;

  @Field(() => ID, { nullable: true, description: 'Unchanged when omitted; "" removes the device limit.' })
  terminalId?: string | null;
}

@ObjectType('MerchantOwner', {
  description:
    "An owner of a merchant as its bank sees it (psp-api.md include_owners): the person's name in full, their login phone and email masked. docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md.",
})
export class MerchantOwnerType {
  @Field(() => ID, { description: "The owner's user id (stable across lookups)." })
  id!: string;

  @Field(() => String, { nullable: true, description: 'As the owner entered it (KYC name once verified); null when not given yet.' })
  fullName!: string | null;

  @Field({ description: 'E.164 with the middle digits masked: country code and operator prefix, then * and the last 4 digits.' })
  phoneMasked!: string;

  @Field(() => String, { nullable: true, description: 'First character of the local part, ***, then @ and the domain in full.' })
  emailMasked!: string | null;

  @Field({ description: 'owner (the corporate role of partner-api.md §1).' })
  role!: string;

  @Field(() => DateTimeResolver, { description: 'When the membership began.' })
  since!: Date;
}
