import { Field, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('PushSendResult', { description: 'What one push send did across the tokens of the recipient.' })
export class PushSendResultType {
  @Field({ description: 'queued: handed to the push provider (or the log provider).' })
  status!: string;

  @Field()
  phone!: string;

  @Field(() => Int)
  sentCount!: number;

  @Field(() => Int)
  failedCount!: number;

  @Field(() => Int, { description: 'Tokens the provider reported unregistered, now invalidated.' })
  invalidatedCount!: number;
}

@ObjectType('MessageSendResult')
export class MessageSendResultType {
  @Field({ description: 'queued when the provider (or the log provider) took the message.' })
  status!: string;

  @Field({ description: 'Delivery status recorded: logged, accepted or failed.' })
  deliveryStatus!: string;
}

@InputType('TestPushInput')
export class TestPushInput {
  @Field()
  phone!: string;

  @Field()
  title!: string;

  @Field()
  body!: string;

  @Field(() => String, { nullable: true })
  type?: string | null;

  @Field(() => String, { nullable: true })
  screen?: string | null;

  @Field(() => String, { nullable: true })
  referenceId?: string | null;

  @Field(() => String, { nullable: true })
  merchantId?: string | null;
}

@InputType('PushTokenInput')
export class PushTokenInput {
  @Field()
  pushToken!: string;

  @Field()
  deviceId!: string;

  @Field(() => String, { nullable: true })
  deviceName?: string | null;
}

@InputType('MessagingStatusInput', { description: 'One delivery status from the messaging provider webhook.' })
export class MessagingStatusInput {
  @Field({ description: "The provider's message id." })
  id!: string;

  @Field({ description: 'sent, delivered, read or failed.' })
  status!: string;

  @Field({ description: 'Unix seconds when the status applied.' })
  timestamp!: string;
}
