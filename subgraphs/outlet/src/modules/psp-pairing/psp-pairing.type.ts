import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('PspPairing', { description: 'A PSP’s identifiers paired with one of the merchant’s devices.' })
export class PspPairingType {
  @Field(() => ID)
  id!: string;

  @Field()
  pspCode!: string;

  @Field()
  pspName!: string;

  @Field(() => String, { nullable: true, description: 'Card type code at the PSP.' })
  kodeKartu!: string | null;

  @Field(() => String, { nullable: true, description: 'Card type name at the PSP.' })
  namaKartu!: string | null;

  @Field(() => String, { nullable: true })
  pspMid!: string | null;

  @Field(() => String, { nullable: true })
  pspTid!: string | null;

  @Field({ description: 'active or inactive.' })
  pairingStatus!: string;
}
