import { DateTimeResolver } from 'graphql-scalars';
import { Directive, Field, ID, InputType, ObjectType } from 'type-graphql';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';

@Directive('@key(fields: "id")')
@ObjectType('Outlet', { description: 'A business point of a merchant, with its own NMID.' })
export class OutletType {
  @Field(() => ID, { description: 'Outlet id (UUID).' })
  id!: string;

  @Field({ description: 'Short code unique within the merchant (e.g. PUSAT).' })
  code!: string;

  @Field({ description: 'Display name of the outlet.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'National merchant ID of this outlet.' })
  nmid!: string | null;

  @Field({ description: 'active or suspended (by the issuing bank).' })
  nmidStatus!: string;

  @Field(() => String, { nullable: true, description: 'Code of the bank that issued the NMID.' })
  nmidBankCode!: string | null;

  @Field(() => String, { nullable: true, description: 'Acquirer merchant ID.' })
  mid!: string | null;

  @Field(() => String, { nullable: true })
  addressLine!: string | null;

  @Field(() => String, { nullable: true })
  city!: string | null;

  @Field(() => String, { nullable: true })
  province!: string | null;

  @Field(() => String, { nullable: true })
  postalCode!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field({ description: 'The transparent outlet of a single-counter merchant.' })
  isDefault!: boolean;

  @Field(() => MerchantRef)
  merchant!: MerchantRef;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field(() => DateTimeResolver)
  updatedAt!: Date;
}

@InputType('AssignNmidInput')
export class AssignNmidInput {
  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID, { nullable: true, description: "The merchant's default outlet when absent." })
  outletId?: string | null;

  @Field({ description: 'QRIS NMID: "ID" followed by 10 to 15 digits.' })
  nmid!: string;

  @Field({ description: 'Code of the issuing bank: 2 to 12 upper-case letters or digits.' })
  bankCode!: string;

  @Field(() => String, { nullable: true, description: 'Acquirer merchant ID; left as it is when absent.' })
  mid?: string | null;
}

@InputType('ChangeNmidStatusInput')
export class ChangeNmidStatusInput {
  @Field()
  nmid!: string;

  @Field({ description: 'active or suspended.' })
  status!: string;

  @Field(() => String, { nullable: true, description: 'Why the bank changed it; recorded in the log.' })
  reason?: string | null;
}

/** Most NMIDs one batch call (`outletsByNmid`, `pspOutletsByNmid`) resolves; the bank adapter's micro-batch is smaller. */
export const MAX_NMIDS_PER_CALL = 500;

@InputType('NmidOfBankInput', { description: 'An NMID as one bank of a batch names it.' })
export class NmidOfBankInput {
  @Field({ description: 'The bank the item acts for: one of the calling principal’s banks.' })
  bankCode!: string;

  @Field()
  nmid!: string;
}

@InputType('EnsureDefaultOutletInput')
export class EnsureDefaultOutletInput {
  @Field(() => ID)
  merchantId!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  addressLine?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  province?: string | null;

  @Field(() => String, { nullable: true, description: 'Five digits.' })
  postalCode?: string | null;

  @Field(() => String, { nullable: true, description: 'E.164.' })
  phone?: string | null;
}
