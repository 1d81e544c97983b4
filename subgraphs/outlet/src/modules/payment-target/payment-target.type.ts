import { Field, ID, ObjectType } from 'type-graphql';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';
import { TerminalType } from '../terminal/terminal.type';

@ObjectType('PaymentTarget', { description: 'Where a payment gateway’s merchant and terminal identifiers point.' })
export class PaymentTargetType {
  @Field(() => MerchantRef)
  merchant!: MerchantRef;

  @Field({ description: 'outlet_nmid, outlet_mid or merchant_id: what the merchant key matched.' })
  matchedBy!: string;

  @Field(() => ID, { nullable: true })
  outletId!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The matched outlet’s NMID, else the terminal’s outlet’s, else the merchant’s default NMID.',
  })
  nmid!: string | null;

  @Field(() => TerminalType, {
    nullable: true,
    description: 'The terminal the terminal key names among the merchant’s live terminals; null when not given or not found.',
  })
  terminal!: TerminalType | null;
}
