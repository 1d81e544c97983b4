import { DateTimeResolver, JSONObjectResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';

@InputType('PaymentTargetInput', { description: 'What the NMID (and TID) resolved to in the outlet subgraph.' })
export class PaymentTargetInput {
  @Field(() => ID)
  merchantId!: string;

  @Field({ description: 'Stored merchant status: draft, inactive, active, suspended or deleted.' })
  merchantStatus!: string;

  @Field(() => String, { nullable: true, description: "The merchant's MCC: its MDR segment." })
  categoryCode?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "The merchant's business scale (micro, small, medium, large): its QRIS criteria, which its MDR depends on; when null, this subgraph's copy says.",
  })
  businessScaleCode?: string | null;

  @Field(() => ID)
  outletId!: string;

  @Field({ description: 'The merchant has more than one live outlet: the result then carries outletId.' })
  multiOutlet!: boolean;

  @Field(() => ID, { nullable: true, description: 'Resolved from the TID when one was sent.' })
  terminalId?: string | null;

  @Field({ description: 'active or suspended.' })
  nmidStatus!: string;
}

@InputType('PaymentEventInput', { description: 'A payment event of psp-api.md §2; the bank is the calling principal, never the body.' })
export class PaymentEventInput {
  @Field({ description: "The sender's event id; unique per bank." })
  externalEventId!: string;

  @Field({ description: 'One of the nine types of psp-api.md §6; any other is stored and rejected (unsupported_event_type).' })
  eventType!: string;

  @Field(() => JSONObjectResolver, { description: 'The raw request body, stored as received.' })
  payload!: Record<string, unknown>;

  @Field()
  nmid!: string;

  @Field(() => String, { nullable: true, description: 'Required for success, failed and cancelled events.' })
  transactionCode?: string | null;

  @Field(() => String, { nullable: true })
  referenceNumber?: string | null;

  @Field(() => String, { nullable: true })
  rrn?: string | null;

  @Field(() => DateTimeResolver)
  transactionAt!: Date;

  @Field(() => SafeIntResolver, {
    nullable: true,
    description: 'Whole rupiah. Required for success, failed and cancelled; for a refund the amount refunded (default: all that is left).',
  })
  grossAmount?: number | null;

  @Field(() => String, { nullable: true })
  payerBankCode?: string | null;

  @Field(() => String, { nullable: true })
  payerBankName?: string | null;

  @Field(() => String, { nullable: true })
  payerNameMasked?: string | null;

  @Field(() => SafeIntResolver, { nullable: true })
  mdrFeeBank?: number | null;

  @Field(() => SafeIntResolver, { nullable: true })
  switchingFee?: number | null;

  @Field(() => SafeIntResolver, { nullable: true })
  platformFee?: number | null;

  @Field(() => String, { nullable: true, description: 'nmid.status_changed only: active or suspended.' })
  nmidNewStatus?: string | null;

  @Field(() => PaymentTargetInput, { nullable: true, description: "Null when the NMID did not resolve (unknown, or another bank's)." })
  target?: PaymentTargetInput | null;
}

@ObjectType('PaymentEventResult')
export class PaymentEventResult {
  @Field(() => ID, { description: "Our event-log id (UUIDv7); for a duplicate, the first event's." })
  eventId!: string;

  @Field({ description: 'success, duplicate_skipped or rejected.' })
  status!: string;

  @Field({
    description:
      'transaction.created, transaction.failed_recorded, transaction.cancelled_recorded, transaction.refunded, transaction.reversed, nmid.status_changed, or recorded_unapplied (rejected).',
  })
  flow!: string;

  @Field(() => ID, { nullable: true, description: 'When the NMID resolved.' })
  merchantId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Only for a merchant with more than one live outlet.' })
  outletId!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'The transaction created, refunded or reversed (for a refund or reversal: the original).',
  })
  transactionId!: string | null;

  @Field(() => String, { nullable: true, description: 'Why it was rejected (a replay of a rejected event is attempted again).' })
  errorCode!: string | null;

  @Field({ description: 'False only while an accepted nmid.status_changed waits to be applied in the outlet subgraph.' })
  applied!: boolean;
}

@InputType('BankPaymentEventInput', {
  description: 'A payment event of a batch: PaymentEventInput and the bank it is for, which must be one the caller acts for.',
})
export class BankPaymentEventInput extends PaymentEventInput {
  @Field({ description: 'The bank whose event this is; every item of a batch is recorded as that bank alone.' })
  bankCode!: string;
}

@InputType('BankPaymentEventToResolveInput', {
  description:
    'An event of recordPaymentEventsFromCopy: BankPaymentEventInput with the MID and TID sent, which resolve it here (its target is ignored).',
})
export class BankPaymentEventToResolveInput extends BankPaymentEventInput {
  @Field(() => String, { nullable: true, description: 'The MID sent: it must be the outlet’s when the outlet has one.' })
  mid?: string | null;

  @Field(() => String, { nullable: true, description: 'The TID sent: it resolves the terminal.' })
  tid?: string | null;
}

@ObjectType('PaymentEventOutcome', { description: 'The answer to one item of recordPaymentEvents, at the index of its input.' })
export class PaymentEventOutcome {
  @Field(() => PaymentEventResult, { nullable: true, description: 'As recordPaymentEvent would answer; null when the input was refused.' })
  result!: PaymentEventResult | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why the input was refused (what recordPaymentEvent answers as BAD_USER_INPUT); nothing of it is stored.',
  })
  inputError!: string | null;

  @Field({
    description:
      'recordPaymentEventsFromCopy only: the copy could not resolve the NMID, and nothing of the event is stored; record it with recordPaymentEvents and the target the owners resolve.',
  })
  unresolved!: boolean;
}
