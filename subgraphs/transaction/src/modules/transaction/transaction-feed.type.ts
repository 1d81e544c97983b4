import { SafeIntResolver } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { OutletRef } from '@subgraphs/transaction/src/references/outlet.ref';
import { TransactionType } from './transaction.type';

@ObjectType('PageInfo', { description: 'Relay page information of a cursor connection.' })
export class PageInfoType {
  @Field({ description: 'Whether another page follows endCursor.' })
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' })
  endCursor!: string | null;
}

@ObjectType('TransactionEdge', { description: 'A transaction in a page, with its cursor.' })
export class TransactionEdgeType {
  @Field({ description: 'Opaque cursor of this transaction.' })
  cursor!: string;

  @Field(() => TransactionType, { description: 'The transaction.' })
  node!: TransactionType;
}

@ObjectType('TransactionConnection', { description: 'Transactions newest first (transaction time, then id).' })
export class TransactionConnectionType {
  @Field(() => [TransactionEdgeType], { description: "The page's transactions with their cursors." })
  edges!: TransactionEdgeType[];

  @Field(() => PageInfoType, { description: 'Whether more pages follow, and the cursor to fetch them.' })
  pageInfo!: PageInfoType;
}

@ObjectType('OutletTransactionTotals', { description: 'Success transactions of one outlet in the period.' })
export class OutletTotalsType {
  @Field(() => OutletRef, { nullable: true, description: 'Null for transactions recorded without an outlet.' })
  outlet!: OutletRef | null;

  @Field(() => SafeIntResolver, { description: 'Σ grossAmount, whole rupiah.' })
  grossAmount!: number;

  @Field(() => Int, { description: 'Number of successful transactions.' })
  count!: number;
}

@ObjectType('TransactionSummary', { description: 'Success transactions in [from, before): totals and one entry per outlet.' })
export class TransactionSummaryType {
  @Field(() => SafeIntResolver, { description: 'Σ grossAmount, whole rupiah.' })
  grossAmount!: number;

  @Field(() => Int, { description: 'Number of successful transactions.' })
  count!: number;

  @Field(() => [OutletTotalsType], { description: 'Per outlet, highest gross first.' })
  outletBreakdown!: OutletTotalsType[];
}
