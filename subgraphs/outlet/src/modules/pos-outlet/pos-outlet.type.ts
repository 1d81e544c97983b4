import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import { Field, Float, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('PosOutlet', { description: 'An outlet as the point of sale sees it (core-api.md §2 Outlet).' })
export class PosOutletType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  addressLine!: string | null;

  @Field(() => String, { nullable: true })
  city!: string | null;

  @Field(() => String, { nullable: true })
  province!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => String, { nullable: true })
  nmid!: string | null;

  @Field(() => String, { nullable: true })
  qrisStaticPayload!: string | null;

  @Field()
  isActive!: boolean;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}

@InputType('CreatePosOutletInput')
export class CreatePosOutletInput {
  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  addressLine?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  province?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;
}

@InputType('UpdatePosOutletInput', { description: 'Absent or null fields stay as they are.' })
export class UpdatePosOutletInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  addressLine?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  province?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Correction only: QRIS NMID, "ID" and 10 to 15 digits, unique over all outlets.' })
  nmid?: string | null;

  @Field(() => String, { nullable: true, description: 'Correction only: the static QRIS payload of the outlet.' })
  qrisStaticPayload?: string | null;
}

@ObjectType('PosOutletSyncPage', {
  description: 'A page of changed outlets for an offline device (docs/decisions/0100-pos-sync-time-in-milliseconds.md).',
})
export class PosOutletSyncPageType {
  @Field(() => [JSONObjectResolver], { description: 'Rows in storage column names; timestamps ISO 8601 (millisecond precision).' })
  rows!: Record<string, unknown>[];

  @Field(() => Float, {
    description: 'Epoch milliseconds to send back as `since`: every outlet written at or before it has been delivered.',
  })
  serverTime!: number;

  @Field()
  hasMore!: boolean;
}
