import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('DeviceActivityLog')
export class DeviceActivityLogType {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'e.g. device.online, pairing.created.' })
  eventType!: string;

  @Field()
  eventTitle!: string;

  @Field({ description: 'info, warning or critical.' })
  severity!: string;

  @Field(() => DateTimeResolver)
  occurredAt!: Date;
}
