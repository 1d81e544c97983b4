import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DIFFERENCE_CLASSES } from '@lib/domain/reconciliation/difference-classes';

export const RESOLUTIONS = ['open', 'resolved'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

@ObjectType('ReconciliationAuditEntry', { description: 'An operator’s resolution or note on a difference.' })
export class ReconciliationAuditEntryType {
  @Field({ description: 'annotated, resolved or reopened.' })
  action!: string;

  @Field({ description: 'The resolution after it: open or resolved.' })
  resolution!: string;

  @Field(() => String, { nullable: true })
  note!: string | null;

  @Field({ description: 'Who: operator:<id>.' })
  actor!: string;

  @Field(() => DateTimeResolver, { description: 'When.' })
  at!: Date;
}

@ObjectType('ReconciliationDifference', {
  description:
    'One difference of an outlet’s business day (docs/decisions/0242-daily-reconciliation.md), found again by every run of the day (same id) until it is gone.',
})
export class ReconciliationDifferenceType {
  @Field(() => ID, { description: 'The same for every run of the day that finds the difference again.' })
  id!: string;

  @Field(() => ID, { description: 'The outlet.' })
  outletId!: string;

  @Field({
    description: `One of ${DIFFERENCE_CLASSES.join(', ')}.`,
  })
  class!: string;

  @Field({ description: 'What it is about: `transaction:<id>`, `settlement:<id>` or `order:<id>`.' })
  subject!: string;

  @Field(() => ID, { nullable: true, description: 'The payment (transaction) concerned, if any.' })
  transactionId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The bank’s settlement concerned (our id), if any.' })
  settlementRef!: string | null;

  @Field(() => ID, { nullable: true, description: 'The point-of-sale order concerned, if any.' })
  salesOrderId!: string | null;

  @Field(() => SafeIntResolver, {
    nullable: true,
    description:
      'Whole rupiah, the platform’s side: the payment to settle, the payments a settlement matched, our MDR fee, the order’s QRIS amount; 0 where our side has nothing; null for a late settlement.',
  })
  expectedAmount!: number | null;

  @Field(() => SafeIntResolver, {
    nullable: true,
    description:
      'Whole rupiah, the other side: the bank’s settlement gross or fee, the payment’s gross for an order; 0 where that side has nothing.',
  })
  reportedAmount!: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'reportedAmount − expectedAmount (null when either is).' })
  differenceAmount!: number | null;

  @Field({ description: 'Facts of the difference as JSON text (settlement_id, receipt_number, reason, received_at, due_at, rule).' })
  detail!: string;

  @Field({ description: 'open or resolved (an operator’s).' })
  resolution!: string;

  @Field(() => String, { nullable: true, description: 'The operator’s note.' })
  note!: string | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When an operator resolved it (null while open).' })
  resolvedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Who resolved it: operator:<id>.' })
  resolvedBy!: string | null;

  @Field(() => DateTimeResolver, { description: 'The first run that found it.' })
  firstFoundAt!: Date;

  @Field(() => DateTimeResolver, { description: 'The last run that found it.' })
  lastFoundAt!: Date;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'Set when a later run no longer found it (kept because an operator resolved or annotated it).',
  })
  clearedAt!: Date | null;

  @Field(() => [ReconciliationAuditEntryType], { description: 'Operators’ resolutions and notes on it, oldest first.' })
  audit!: ReconciliationAuditEntryType[];
}

@ObjectType('ReconciliationDay', {
  description:
    'An outlet’s business day (Asia/Jakarta, as settlements) reconciled three ways: the bank’s settlements, the payments (success transactions) and the point of sale’s orders paid by QRIS.',
})
export class ReconciliationDayType {
  @Field(() => ID, { description: 'The outlet (owned by the outlet subgraph).' })
  outletId!: string;

  @Field({ description: 'YYYY-MM-DD.' })
  businessDay!: string;

  @Field(() => Int, { description: 'The bank’s settlements of the outlet and day.' })
  settlementCount!: number;

  @Field(() => SafeIntResolver, { description: 'The settlements’ gross, whole rupiah.' })
  settlementGrossAmount!: number;

  @Field(() => SafeIntResolver, { description: 'The settlements’ MDR (mdr_total), whole rupiah.' })
  settlementMdrAmount!: number;

  @Field(() => SafeIntResolver, { description: 'The settlements’ net, whole rupiah.' })
  settlementNetAmount!: number;

  @Field(() => Int, { description: 'Success transactions of the day.' })
  paymentCount!: number;

  @Field(() => SafeIntResolver, { description: 'Their gross, whole rupiah.' })
  paymentGrossAmount!: number;

  @Field(() => SafeIntResolver, { description: 'The MDR fees the platform recorded on them.' })
  paymentMdrFeeAmount!: number;

  @Field(() => Int, { description: 'Of them, settled.' })
  settledPaymentCount!: number;

  @Field(() => SafeIntResolver, { description: 'The settled ones’ gross, whole rupiah.' })
  settledGrossAmount!: number;

  @Field(() => Int, { description: 'Point-of-sale orders paid (completed or refunded) with a QRIS payment.' })
  qrisOrderCount!: number;

  @Field(() => SafeIntResolver, { description: 'Their QRIS amounts.' })
  qrisOrderAmount!: number;

  @Field(() => Int, { description: 'Of them, matched to a payment (dynamic by bill number, static by amount and time).' })
  matchedOrderCount!: number;

  @Field(() => Int, { description: 'Differences the last run found.' })
  differenceCount!: number;

  @Field(() => Int, { description: 'Differences not resolved by an operator.' })
  openDifferenceCount!: number;

  @Field({ description: 'reconciled (no difference) or differences.' })
  status!: string;

  @Field(() => DateTimeResolver, { description: 'When the last run wrote it.' })
  reconciledAt!: Date;

  @Field(() => [ReconciliationDifferenceType], { description: 'Its differences (and cleared ones an operator touched).' })
  differences!: ReconciliationDifferenceType[];
}

@InputType('AnnotateReconciliationDifferenceInput')
export class AnnotateReconciliationDifferenceInput {
  @Field(() => ID, { description: 'The difference (ReconciliationDifference.id).' })
  differenceId!: string;

  @Field(() => String, { nullable: true, description: 'open or resolved; unchanged when omitted.' })
  resolution?: string | null;

  @Field(() => String, { nullable: true, description: 'A note, 1 to 1000 characters; unchanged when omitted, removed when empty.' })
  note?: string | null;
}
