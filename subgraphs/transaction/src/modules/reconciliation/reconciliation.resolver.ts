import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { OPERATOR_WRITES, assertOperatorRole } from '@lib/domain/access/operator-roles';
import { readVisibility } from '@lib/domain/access/user-scope';
import { ForbiddenError } from '@lib/errors/app-error';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { MerchantRef } from '@subgraphs/transaction/src/references/merchant.ref';
import { AnnotateReconciliationDifferenceInput, ReconciliationDayType, ReconciliationDifferenceType } from './reconciliation.type';

/** The daily reconciliation (docs/decisions/0242-daily-reconciliation.md): its results on the merchant, operators' notes. */
@Resolver(() => MerchantRef)
export class MerchantReconciliationResolver {
  @Authorized('service', 'internal', 'operator', 'user')
  @FieldResolver(() => [ReconciliationDayType], {
    description:
      'The merchant’s outlets reconciled for a business day (Asia/Jakarta, as the bank’s settlements), by outlet: settlements, payments and the point of sale’s QRIS orders with every difference. Owners and operators see every outlet, admins and viewers their outlets; staff are FORBIDDEN. An outlet with nothing that day has no entry.',
  })
  reconciliationDays(
    @Root() merchant: MerchantRef,
    @Arg('businessDay', { description: 'YYYY-MM-DD.' }) businessDay: string,
    @Arg('outletId', () => ID, { nullable: true, description: 'One outlet (within the reader’s outlets).' }) outletId: string | null,
    @Ctx() ctx: TransactionContext,
  ): Promise<ReconciliationDayType[]> {
    if (ctx.principal.kind === 'user' && ctx.principal.role === 'staff')
      throw new ForbiddenError('the staff role may not read reconciliations');
    const visibility = readVisibility(ctx.principal, { merchantId: merchant.id, outletId });
    const outlets = outletId ? [outletId.toLowerCase()] : (visibility?.outletIds ?? null);
    return ctx.services.reconciliation.days(merchant.id.toLowerCase(), businessDay, outlets);
  }
}

@Resolver(() => ReconciliationDifferenceType)
export class ReconciliationDifferenceResolver {
  @Authorized('operator')
  @Mutation(() => ReconciliationDifferenceType, {
    description:
      'An operator (admin, support) resolves, reopens or annotates a reconciliation difference; each change is an audit row with the operator. The same change again writes nothing. A later run that finds the difference again keeps its resolution and note.',
  })
  annotateReconciliationDifference(
    @Arg('input', () => AnnotateReconciliationDifferenceInput) input: AnnotateReconciliationDifferenceInput,
    @Ctx() ctx: TransactionContext,
  ): Promise<ReconciliationDifferenceType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.reconciliation);
    return ctx.services.reconciliation.annotate(ctx.principal, input);
  }
}
