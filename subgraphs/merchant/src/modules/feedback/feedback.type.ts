import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType('SubmitFeedbackInput')
export class SubmitFeedbackInput {
  @Field({ description: 'Lower-case letters, digits and _, starting with a letter, 2 to 50 characters.' })
  categoryCode!: string;

  @Field({ description: '1 to 100 characters.' })
  categoryLabel!: string;

  @Field(() => Int, { nullable: true, description: '1 to 5.' })
  rating?: number | null;

  @Field(() => String, { nullable: true, description: 'At most 2000 characters.' })
  message?: string | null;

  @Field(() => String, { nullable: true, description: 'Indonesian phone number.' })
  contactPhone?: string | null;

  @Field({ defaultValue: false })
  allowFollowUp!: boolean;
}

@ObjectType('Feedback')
export class FeedbackType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { nullable: true, description: 'The merchant the user acted for; null without one.' })
  merchantId!: string | null;

  @Field()
  categoryCode!: string;

  @Field()
  categoryLabel!: string;

  @Field(() => Int, { nullable: true })
  rating!: number | null;

  @Field(() => String, { nullable: true })
  message!: string | null;

  @Field()
  allowFollowUp!: boolean;

  @Field({ description: 'mobile_app.' })
  source!: string;

  @Field(() => DateTimeResolver)
  createdAt!: Date;
}
