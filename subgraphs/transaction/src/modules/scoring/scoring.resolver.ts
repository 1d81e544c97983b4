import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { TransactionContext } from '@subgraphs/transaction/src/context';
import { MerchantRef } from '@subgraphs/transaction/src/references/merchant.ref';
import { assertPartnerMayRead } from '@lib/domain/access/partner-scope';
import { ScoringAType, ScoringBType } from './scoring.type';

/**
 * Scoring on the Merchant stub. The merchant subgraph decides partner scope (partnerMerchantAccess); a partner
 * principal reaches a merchant here only when the adapter put it into the principal's merchantIds.
 */
@Resolver(() => MerchantRef)
export class MerchantScoringResolver {
  @Authorized('service', 'internal', 'operator', 'partner')
  @FieldResolver(() => ScoringAType, { description: 'Scoring summary, Contract A (docs/scoring.md).' })
  scoringA(
    @Root() merchant: MerchantRef,
    @Arg('asOf', () => DateTimeResolver, { nullable: true, description: 'Default: now.' }) asOf: Date | null | undefined,
    @Ctx() ctx: TransactionContext,
  ): Promise<ScoringAType> {
    assertPartnerMayRead(ctx.principal, merchant.id);
    return ctx.services.scoring.contractA(merchant.id, asOf ?? new Date());
  }

  @Authorized('service', 'internal', 'operator', 'partner')
  @FieldResolver(() => ScoringBType, { description: 'Scoring summary, Contract B (docs/scoring.md).' })
  scoringB(
    @Root() merchant: MerchantRef,
    @Arg('asOf', () => DateTimeResolver, { nullable: true, description: 'Default: now.' }) asOf: Date | null | undefined,
    @Ctx() ctx: TransactionContext,
  ): Promise<ScoringBType> {
    assertPartnerMayRead(ctx.principal, merchant.id);
    return ctx.services.scoring.contractB(merchant.id, asOf ?? new Date());
  }
}
