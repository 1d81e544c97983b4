import { Field, InputType } from 'type-graphql';

/** PUT /auth/profile: absent or null fields are kept; an empty string clears an optional field. */
@InputType('UpdateProfileInput')
export class UpdateProfileInput {
  @Field(() => String, { nullable: true, description: '1 to 100 characters.' })
  fullName?: string | null;

  @Field(() => String, { nullable: true, description: '16 digits.' })
  nik?: string | null;

  @Field(() => String, { nullable: true, description: 'male or female.' })
  gender?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 300 characters.' })
  addressLine?: string | null;

  @Field(() => String, { nullable: true, description: 'An https URL, at most 2000 characters.' })
  avatarUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'A changed email is unverified until verified again.' })
  email?: string | null;
}
