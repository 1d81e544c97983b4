import { DateTimeResolver, JSONObjectResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType('SettlementInput', { description: 'A settlement of psp-api.md §2; the bank is the calling principal, never the body.' })
export class SettlementInput {
  @Field({ description: "The sender's event id; unique per bank." })
  externalEventId!: string;

  @Field({ description: "The bank's settlement id; unique per bank." })
  settlementId!: string;

  @Field()
  nmid!: string;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah, at least 0.' })
  grossAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Whole rupiah, at least 0.' })
  mdrTotal!: number;

  @Field(() => SafeIntResolver, { description: 'grossAmount − mdrTotal.' })
  netAmount!: number;

  @Field({ description: 'YYYY-MM-DD, a business date in Asia/Jakarta.' })
  settlementDate!: string;

  @Field(() => DateTimeResolver)
  completedAt!: Date;

  @Field(() => JSONObjectResolver, { description: 'The raw request body, stored as received.' })
  payload!: Record<string, unknown>;

  @Field(() => ID, { nullable: true, description: 'The outlet of the NMID; null when the NMID is unknown to this bank.' })
  outletId?: string | null;

  @Field(() => ID, { nullable: true })
  merchantId?: string | null;
}

@ObjectType('SettlementResult')
export class SettlementResult {
  @Field(() => ID, { description: "Our id of the settlement; for a duplicate, the first one's." })
  settlementRef!: string;

  @Field({ description: 'success, duplicate_skipped or rejected.' })
  status!: string;

  @Field({ description: "The bank's settlement id (the first one's, for a duplicate)." })
  settlementId!: string;

  @Field(() => Int, { description: 'Transactions this settlement settled.' })
  matchedCount!: number;

  @Field(() => SafeIntResolver, { description: 'Sum of their gross amounts.' })
  matchedAmount!: number;

  @Field(() => SafeIntResolver)
  grossAmount!: number;

  @Field(() => SafeIntResolver, { description: 'grossAmount − matchedAmount (0 when reconciled).' })
  discrepancyAmount!: number;

  @Field({ description: 'Accepted, and the matched transactions add up to grossAmount.' })
  reconciled!: boolean;

  @Field(() => String, { nullable: true, description: 'Why it was rejected: unknown_nmid.' })
  errorCode!: string | null;
}
