import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import { Directive, Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';

/** What the static QRIS payload needs from the merchant subgraph (docs/decisions/0201-qris-payloads.md). */
export const QRIS_MERCHANT_FIELDS = 'merchant { name categoryCode businessScaleCode address { city postalCode } }';

@Directive('@key(fields: "id merchantId")')
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

  @Directive(`@requires(fields: "${QRIS_MERCHANT_FIELDS}")`)
  @Field(() => String, {
    nullable: true,
    description:
      'The static QRIS of the outlet (point of initiation 11), built on every read from the NMID and the merchant; a stored correction replaces it. Null without an NMID or a merchant category code.',
  })
  qrisStaticPayload!: string | null;

  @Field(() => MerchantRef)
  merchant!: MerchantRef;

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

  @Field(() => String, {
    nullable: true,
    description: 'Correction only: a static QRIS of the outlet’s NMID (TLV, CRC and NMID checked); "" drops the correction.',
  })
  qrisStaticPayload?: string | null;
}

@ObjectType('PosOutletSyncPage', {
  description: 'A page of changed outlets for an offline device (docs/decisions/0055-pos-sync.md).',
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
