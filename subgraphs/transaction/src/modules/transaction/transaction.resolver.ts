import { DateTimeResolver, JSONObjectResolver, SafeIntResolver } from 'graphql-scalars';
import { Arg, Args, ArgsType, Authorized, Ctx, Field, FieldResolver, ID, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { MerchantRef } from '@subgraphs/transaction/src/references/merchant.ref';
import { assertPartnerMayRead } from '@lib/domain/access/partner-scope';
import { MAX_LATEST, MAX_WINDOW_ITEMS } from './transaction.service';
import { TransactionType } from './transaction.type';
import type { TransactionFilter } from './transaction.repository';
import { PAGE_ROW_FIELDS, type TransactionPageRow } from './transaction-page';
import { readVisibility } from '@lib/domain/access/user-scope';
import { OutletRef } from '@subgraphs/transaction/src/references/outlet.ref';
import { MAX_CONNECTION_PAGE } from './transaction-feed.service';
import { OutletTotalsType, TransactionConnectionType, TransactionSummaryType } from './transaction-feed.type';

@ObjectType('TransactionTotals', { description: 'Gross and count of success transactions.' })
export class TransactionTotalsType {
  @Field(() => SafeIntResolver, { description: 'Σ grossAmount of success transactions, whole rupiah.' })
  grossAmount!: number;

  @Field(() => Int)
  count!: number;

  @Field(() => [OutletTotalsType], { description: 'Per outlet, highest gross first; grossAmount and count are its sums.' })
  outletBreakdown!: OutletTotalsType[];
}

@Resolver(() => TransactionType)
export class TransactionResolver {
  @Authorized('service', 'internal', 'operator')
  @Query(() => TransactionType, { nullable: true, description: "A transaction by id, within the caller's scope." })
  transaction(
    @Arg('id', () => ID, { description: 'Transaction id (UUID).' }) id: string,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionType | null> {
    return ctx.services.transaction.findById(id);
  }
}

/** The arguments of merchantTransactions and merchantTransactionPage (declared last to first: the schema's order). */
@ArgsType()
export class MerchantTransactionsArgs {
  @Field(() => Int, { defaultValue: 50 })
  limit!: number;

  @Field(() => ID, { nullable: true, description: 'Only this outlet of the merchant.' })
  outletId!: string | null;

  @Field(() => [String], { nullable: true, description: 'Stored statuses; all when omitted.' })
  statuses!: string[] | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'Exclusive.' })
  before!: Date | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'Inclusive.' })
  to!: Date | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'Inclusive.' })
  from!: Date | null;
}

/** Who may read merchantTransactions and merchantTransactionPage: one list, so the two cannot drift apart. */
const WINDOW_READERS = ['service', 'internal', 'operator', 'partner', 'user'] as const;

/**
 * A partner principal needs the merchant in its merchantIds, a user principal the merchant as its own and the named
 * outlet in its scope; the window's filter, narrowed to what a user may see (decision 0061).
 */
function windowFilterOf(ctx: TransactionContext, merchant: MerchantRef, args: MerchantTransactionsArgs): TransactionFilter {
  assertPartnerMayRead(ctx.principal, merchant.id);
  return { ...args, visibility: readVisibility(ctx.principal, { merchantId: merchant.id, outletId: args.outletId }) };
}

@Resolver(() => MerchantRef)
export class MerchantTransactionsResolver {
  @Authorized('service', 'internal', 'operator')
  @FieldResolver(() => [TransactionType], { description: `The latest transactions, newest first (at most ${MAX_LATEST}).` })
  latestTransactions(
    @Root() merchant: MerchantRef,
    @Arg('last', () => Int, { defaultValue: 20 }) last: number,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionType[]> {
    return ctx.services.transaction.latestOfMerchant(merchant.id, last);
  }

  @Authorized(...WINDOW_READERS)
  @FieldResolver(() => [TransactionType], {
    description: `Transactions in a transaction_at window, newest first, at most \`limit\` (1..${MAX_WINDOW_ITEMS}). A partner principal needs the merchant in its merchantIds, a user principal the merchant as its own; a user sees its outlets and device only.`,
  })
  merchantTransactions(
    @Root() merchant: MerchantRef,
    @Args(() => MerchantTransactionsArgs) args: MerchantTransactionsArgs,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionType[]> {
    return ctx.services.transaction.ofMerchant(merchant.id, windowFilterOf(ctx, merchant, args), args.limit);
  }

  @Authorized(...WINDOW_READERS)
  @FieldResolver(() => [JSONObjectResolver], {
    description: `The lean form of merchantTransactions for bulk lists: the same arguments, checks, rows and order, each row a plain object of the Transaction fields ${PAGE_ROW_FIELDS.join(', ')}, with the values those fields give (DateTime as its ISO string, mdrRate as its decimal string). One scalar per row instead of a field per value, so a 500-row page is not executed and reshaped field by field.`,
  })
  merchantTransactionPage(
    @Root() merchant: MerchantRef,
    @Args(() => MerchantTransactionsArgs) args: MerchantTransactionsArgs,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionPageRow[]> {
    return ctx.services.transaction.pageOfMerchant(merchant.id, windowFilterOf(ctx, merchant, args), args.limit);
  }

  @Authorized('service', 'internal', 'operator', 'partner')
  @FieldResolver(() => TransactionTotalsType, {
    description: 'Gross and count of success transactions in a window (all time without bounds); batched.',
  })
  transactionTotals(
    @Root() merchant: MerchantRef,
    @Arg('from', () => DateTimeResolver, { nullable: true, description: 'Inclusive.' }) from: Date | null,
    @Arg('before', () => DateTimeResolver, { nullable: true, description: 'Exclusive.' }) before: Date | null,
    @Arg('outletId', () => ID, { nullable: true, description: 'Only this outlet of the merchant.' }) outletId: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionTotalsType> {
    assertPartnerMayRead(ctx.principal, merchant.id);
    return ctx.services.transaction.totalsOfMerchant(merchant.id, { from, before, outletId });
  }
}

@ObjectType('TransactionPeriodSummary', { description: 'Success transactions of a period, whole rupiah.' })
export class TransactionPeriodSummaryType {
  @Field(() => SafeIntResolver)
  grossAmount!: number;

  @Field(() => SafeIntResolver)
  mdrFeeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ platformFee: the platform’s service fee, charged with each day’s settlement.' })
  serviceFeeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'grossAmount − mdrFeeAmount − serviceFeeAmount.' })
  netAmount!: number;

  @Field(() => Int)
  count!: number;
}

@Resolver(() => MerchantRef)
export class MerchantTransactionPeriodResolver {
  @Authorized('service', 'internal', 'operator', 'user')
  @FieldResolver(() => TransactionPeriodSummaryType, {
    description:
      'Sums over success transactions with transactionAt in [from, before). A user principal needs the merchant as its own and sums its outlets and device only.',
  })
  transactionPeriodSummary(
    @Root() merchant: MerchantRef,
    @Arg('from', () => DateTimeResolver, { description: 'Inclusive.' }) from: Date,
    @Arg('before', () => DateTimeResolver, { description: 'Exclusive.' }) before: Date,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionPeriodSummaryType> {
    const visibility = readVisibility(ctx.principal, { merchantId: merchant.id });
    return ctx.services.transactionPeriod.summaryOfMerchant(merchant.id, from, before, visibility);
  }

  @Authorized('internal', 'operator')
  @FieldResolver(() => String, {
    nullable: true,
    description: 'The stored status of the merchant’s transaction with this code; null when none is stored.',
  })
  storedTransactionStatus(
    @Root() merchant: MerchantRef,
    @Arg('transactionCode') transactionCode: string,
    @Ctx() ctx: TransactionContext,
  ): Promise<string | null> {
    return ctx.services.transactionPeriod.storedStatus(merchant.id, transactionCode);
  }
}

/** The app's and dashboards' reads: an app user sees its own merchant, within its outlets (and device). */
@Resolver(() => MerchantRef)
export class MerchantTransactionFeedResolver {
  @Authorized('service', 'internal', 'operator', 'user')
  @FieldResolver(() => TransactionConnectionType, {
    description: `Transactions newest first, as a cursor connection (first 1..${MAX_CONNECTION_PAGE}).`,
  })
  transactions(
    @Root() merchant: MerchantRef,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size.' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'Cursor from pageInfo.endCursor of the previous page.' })
    after: string | null,
    @Arg('outletId', () => ID, { nullable: true, description: "Only this outlet's transactions; all the member may see when omitted." })
    outletId: string | null,
    @Arg('status', () => String, { nullable: true, description: 'success, pending, failed, cancelled, refunded or reversed.' })
    status: string | null,
    @Arg('from', () => DateTimeResolver, { nullable: true, description: 'Inclusive.' }) from: Date | null,
    @Arg('to', () => DateTimeResolver, { nullable: true, description: 'Inclusive.' }) to: Date | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionConnectionType> {
    const visibility = readVisibility(ctx.principal, { merchantId: merchant.id, outletId });
    return ctx.services.feed.connection(merchant.id, { first, after, outletId, status, from, to }, visibility);
  }

  @Authorized('service', 'internal', 'operator', 'user')
  @FieldResolver(() => TransactionSummaryType, {
    description: 'Success transactions in [from, before): gross, count and the breakdown per outlet.',
  })
  transactionSummary(
    @Root() merchant: MerchantRef,
    @Arg('from', () => DateTimeResolver, { description: 'Start of the window, inclusive (ISO 8601).' }) from: Date,
    @Arg('before', () => DateTimeResolver, { description: 'End of the window, exclusive (ISO 8601).' }) before: Date,
    @Arg('outletId', () => ID, { nullable: true, description: "Only this outlet's transactions; all the member may see when omitted." })
    outletId: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<TransactionSummaryType> {
    const visibility = readVisibility(ctx.principal, { merchantId: merchant.id, outletId });
    return ctx.services.feed.summary(merchant.id, { from, before, outletId }, visibility);
  }
}

@Resolver(() => TransactionType)
export class TransactionOutletResolver {
  @FieldResolver(() => OutletRef, { nullable: true, description: 'The outlet (resolved by the outlet subgraph).' })
  outlet(@Root() transaction: TransactionType): OutletRef | null {
    return transaction.outletId ? { id: transaction.outletId } : null;
  }
}
