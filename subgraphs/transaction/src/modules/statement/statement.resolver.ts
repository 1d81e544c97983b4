import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { MerchantRef } from '@subgraphs/transaction/src/references/merchant.ref';
import { BadInputError } from '@lib/errors/app-error';
import type { StatementFormat, StatementRow } from './statement.repository';
import { StatementFileType, StatementType } from './statement.type';

const OWNER_ONLY = 'Owners only (FORBIDDEN for other roles): statements show the merchant’s money figures.';

/** Statements (docs/decisions/0242-daily-reconciliation.md): the owner's merchant from the principal. */
@Resolver()
export class StatementResolver {
  @Authorized('user')
  @Mutation(() => StatementType, {
    description: `Queues the statement of a month (YYYY-MM, Asia/Makassar, from 2020-01 to the current month, to date) of the owner’s merchant, or of one of its outlets; a rerun replaces the files of the same statement, never adds one. BAD_USER_INPUT for another month, NOT_FOUND for an outlet that is not the merchant’s. ${OWNER_ONLY}`,
  })
  async requestStatement(
    @Arg('month', { description: 'YYYY-MM, a calendar month in Asia/Makassar.' }) month: string,
    @Arg('outletId', () => ID, { nullable: true, description: 'One outlet of the merchant; null: the whole merchant.' })
    outletId: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<StatementType> {
    return toStatement(await ctx.services.statement.request(ctx.principal, month, outletId));
  }

  @Authorized('user')
  @Query(() => StatementFileType, {
    description: `A generated file of a statement: \`format\` \`pdf\` or \`csv\`. NOT_FOUND for another merchant’s or one not generated yet. ${OWNER_ONLY}`,
  })
  async statementFile(
    @Arg('id', () => ID, { description: 'The statement (UUID).' }) id: string,
    @Arg('format', { description: '`pdf` or `csv`.' }) format: string,
    @Ctx() ctx: TransactionContext,
  ): Promise<StatementFileType> {
    if (format !== 'pdf' && format !== 'csv') throw new BadInputError('format must be pdf or csv');
    const file = await ctx.services.statement.file(ctx.principal, id, format as StatementFormat);
    return { filename: file.filename, contentType: file.contentType, contentBase64: file.content.toString('base64') };
  }
}

@Resolver(() => MerchantRef)
export class MerchantStatementResolver {
  @Authorized('user')
  @FieldResolver(() => [StatementType], {
    description: `The merchant’s monthly statements (one month when given), newest first. ${OWNER_ONLY}`,
  })
  async statements(
    @Root() merchant: MerchantRef,
    @Arg('month', () => String, { nullable: true, description: 'YYYY-MM.' }) month: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<StatementType[]> {
    return (await ctx.services.statement.list(ctx.principal, merchant.id, month)).map(toStatement);
  }
}

function toStatement(row: StatementRow): StatementType {
  const t = row.totals;
  return {
    id: row.id,
    merchantId: row.merchant_id,
    outletId: row.outlet_id,
    month: row.month,
    status: row.status,
    totals: t && {
      transactionCount: t.transaction_count,
      grossAmount: t.gross_amount,
      mdrFeeAmount: t.mdr_fee_amount,
      serviceFeeAmount: t.service_fee_amount,
      netAmount: t.net_amount,
      refundCount: t.refund_count,
      refundAmount: t.refund_amount,
      settledAmount: t.settled_amount,
      openingUnsettledAmount: t.opening_unsettled_amount,
    },
    pdfBytes: row.pdf_bytes,
    csvBytes: row.csv_bytes,
    requestedAt: new Date(row.requested_at),
    generatedAt: row.generated_at === null ? null : new Date(row.generated_at),
  };
}
