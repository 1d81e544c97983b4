import { JSONObjectResolver } from 'graphql-scalars';
import { Field, Float, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('PosSyncPage', {
  description: 'A page of changed rows for an offline device (docs/decisions/0055-pos-sync.md).',
})
export class SyncPageType {
  @Field(() => [JSONObjectResolver], { description: 'Rows in storage column names; timestamps ISO 8601 (millisecond precision).' })
  rows!: Record<string, unknown>[];

  @Field(() => Float, {
    description: 'Epoch milliseconds to send back as `since`: every row written at or before it has been delivered.',
  })
  serverTime!: number;

  @Field()
  hasMore!: boolean;
}

@InputType('PosPushItemInput')
export class PushItemInput {
  @Field(() => ID)
  outboxId!: string;

  @Field({ description: 'sales_order, stock_movement or customer.' })
  entityType!: string;

  @Field(() => ID)
  entityId!: string;

  @Field({ description: 'sales_order: create; stock_movement: create; customer: upsert or delete.' })
  op!: string;

  @Field(() => JSONObjectResolver, { nullable: true })
  payload?: Record<string, unknown> | null;
}

@ObjectType('PosPushRejection')
export class PushRejectionType {
  @Field(() => ID)
  outboxId!: string;

  @Field()
  reason!: string;
}

@ObjectType('PosPushResult')
export class PushResultType {
  @Field(() => [ID], { description: 'Applied now or earlier (a replayed outbox id).' })
  accepted!: string[];

  @Field(() => [PushRejectionType])
  rejected!: PushRejectionType[];
}
