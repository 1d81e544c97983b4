import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('StatementTotals', { description: 'The figures of a statement’s month, whole rupiah.' })
export class StatementTotalsType {
  @Field(() => Int, { description: 'Success transactions of the month.' })
  transactionCount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ gross of the success transactions.' })
  grossAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ MDR fees of the success transactions.' })
  mdrFeeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ daily service fees (platform fee) of the success transactions.' })
  serviceFeeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'gross − MDR − service fees: the app’s `/merchant/transactions?period=month` net.' })
  netAmount!: number;

  @Field(() => Int, { description: 'Transactions of the month with a refund.' })
  refundCount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ refunded amounts of the month’s transactions.' })
  refundAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ net of the month’s successful settlements.' })
  settledAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Net of the success transactions before the month not settled when it began.' })
  openingUnsettledAmount!: number;
}

@ObjectType('Statement', {
  description:
    'A monthly statement (docs/decisions/0242-daily-reconciliation.md) of a merchant, or of one of its outlets; its PDF and CSV come from `statementFile`.',
})
export class StatementType {
  @Field(() => ID, { description: 'Kept across reruns: one statement per merchant, outlet and month.' })
  id!: string;

  @Field(() => ID, { description: 'The merchant.' })
  merchantId!: string;

  @Field(() => ID, { nullable: true, description: 'Null: the whole merchant.' })
  outletId!: string | null;

  @Field({ description: 'The calendar month in Asia/Makassar, YYYY-MM.' })
  month!: string;

  @Field({ description: '`pending` (queued; earlier files, if any, still served) or `ready`.' })
  status!: string;

  @Field(() => StatementTotalsType, { nullable: true, description: 'Null until first generated.' })
  totals!: StatementTotalsType | null;

  @Field(() => Int, { nullable: true, description: 'Size of the PDF in bytes.' })
  pdfBytes!: number | null;

  @Field(() => Int, { nullable: true, description: 'Size of the CSV in bytes.' })
  csvBytes!: number | null;

  @Field(() => DateTimeResolver, { description: 'When it was first created or last asked for.' })
  requestedAt!: Date;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When its files were last generated; null until then.' })
  generatedAt!: Date | null;
}

@ObjectType('StatementFile', { description: 'One generated file of a statement.' })
export class StatementFileType {
  @Field({ description: 'e.g. `laporan-2026-10.pdf`.' })
  filename!: string;

  @Field({ description: '`application/pdf` or `text/csv; charset=utf-8`.' })
  contentType!: string;

  @Field({ description: 'The file, base64.' })
  contentBase64!: string;
}
