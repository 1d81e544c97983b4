import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, ObjectType } from 'type-graphql';

@Directive('@key(fields: "id")')
@ObjectType('Terminal', { description: 'A payment device at an outlet, e.g. a QRIS soundbox.' })
export class TerminalType {
  @Field(() => ID, { description: 'Terminal id (UUID).' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Terminal ID as the acquirer knows it.' })
  tid!: string | null;

  @Field(() => String, { nullable: true, description: 'Hardware serial number.' })
  serialNumber!: string | null;

  @Field(() => String, { nullable: true, description: 'Device model, e.g. Sunmi V2s.' })
  model!: string | null;

  @Field(() => String, { nullable: true })
  firmwareVersion!: string | null;

  @Field(() => String, { nullable: true })
  brandName!: string | null;

  @Field(() => String, { nullable: true, description: 'e.g. Soundbox, EDC.' })
  deviceTypeName!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the device stands at the outlet.' })
  placementName!: string | null;

  @Field({ description: 'online, offline or inactive.' })
  status!: string;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When the device last reported; null if never.' })
  lastSeenAt!: Date | null;

  /** Resolves `outlet`; not a field of its own. */
  outletId!: string;
}
