import { OPERATOR_WRITES, assertOperatorRole } from '@lib/domain/access/operator-roles';
import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { bankOfItem } from '@lib/domain/access/bank-scope';
import { assertPartnerMayRead } from '@lib/domain/access/partner-scope';
import { assertUserMay, outletInScope, withinScope } from '@lib/domain/access/user-scope';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';
import { OutletInputError } from './outlet.errors';
import {
  AssignNmidInput,
  ChangeNmidStatusInput,
  EnsureDefaultOutletInput,
  MAX_NMIDS_PER_CALL,
  NmidOfBankInput,
  OutletType,
} from './outlet.type';

@Resolver(() => OutletType)
export class OutletResolver {
  @Authorized('service', 'internal', 'operator')
  @Query(() => OutletType, { nullable: true, description: "An outlet by id, within the caller's scope." })
  outlet(@Arg('id', () => ID, { description: 'Outlet id (UUID).' }) id: string, @Ctx() ctx: OutletContext): Promise<OutletType | null> {
    return ctx.services.outlet.findById(id);
  }

  @Authorized('service', 'internal', 'operator', 'bank')
  @Query(() => OutletType, { nullable: true, description: 'The live outlet with this NMID; a bank sees only the NMIDs it issued.' })
  outletByNmid(@Arg('nmid', { description: 'National merchant ID.' }) nmid: string, @Ctx() ctx: OutletContext): Promise<OutletType | null> {
    return ctx.services.outlet.findByNmid(nmid, ctx.principal);
  }

  // One bank only, not a micro-batch of several ('banks'): the merchant subgraph resolves the merchant of each outlet
  // knowing the principal but not the item, so only a one-bank principal keeps another bank's merchant out
  // (docs/decisions/0026-merchant-lifecycle-and-bank-visibility.md). pspOutletsByNmid checks each item's merchant itself and takes batches.
  @Authorized('bank')
  @Query(() => [OutletType], {
    nullable: 'items',
    description:
      'outletByNmid for each item, as the calling bank, which each item names: the bank adapter resolves several NMIDs of one bank in one call. Aligned with `requests`; null where unknown.',
  })
  outletsByNmid(
    @Arg('requests', () => [NmidOfBankInput], { description: 'NMIDs with the bank asking for each (a bank sees only its own).' })
    requests: NmidOfBankInput[],
    @Ctx() ctx: OutletContext,
  ): Promise<(OutletType | null)[]> {
    if (requests.length > MAX_NMIDS_PER_CALL) throw new OutletInputError(`at most ${MAX_NMIDS_PER_CALL} requests`);
    const banks = requests.map((r) => bankOfItem(ctx.principal, r.bankCode));
    return Promise.all(requests.map((r, i) => ctx.services.outlet.findByNmid(r.nmid, banks[i])));
  }

  @Authorized('internal', 'operator', 'bank')
  @Mutation(() => OutletType, {
    description: 'Assigns an NMID to an outlet (the default one when none is named); among banks only the tier-1 PSP. Idempotent.',
  })
  assignNmid(@Arg('input', () => AssignNmidInput) input: AssignNmidInput, @Ctx() ctx: OutletContext): Promise<OutletType> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    return ctx.services.outlet.assignNmid(input, ctx.principal);
  }

  @Authorized('internal', 'operator')
  @Mutation(() => OutletType, { description: 'The merchant’s live default outlet, created (code PUSAT) when it has none. Idempotent.' })
  ensureDefaultOutlet(
    @Arg('input', () => EnsureDefaultOutletInput) input: EnsureDefaultOutletInput,
    @Ctx() ctx: OutletContext,
  ): Promise<OutletType> {
    const { merchantId, ...outlet } = input;
    return ctx.services.outlet.ensureDefault(merchantId, outlet);
  }

  @Authorized('internal', 'operator', 'bank')
  @Mutation(() => OutletType, {
    nullable: true,
    description: "Suspends or reactivates an NMID; null when unknown (or, for a bank, another bank's). Idempotent.",
  })
  async changeNmidStatus(
    @Arg('input', () => ChangeNmidStatusInput) input: ChangeNmidStatusInput,
    @Ctx() ctx: OutletContext,
  ): Promise<OutletType | null> {
    assertOperatorRole(ctx.principal, OPERATOR_WRITES.merchantLifecycle);
    const change = await ctx.services.outlet.changeNmidStatus(input, ctx.principal);
    if (change && change.previousStatus !== input.status) {
      ctx.log.info(
        { nmid: input.nmid, from: change.previousStatus, to: input.status, reason: input.reason ?? null, by: ctx.principal.kind },
        'nmid status changed',
      );
    }
    return change?.outlet ?? null;
  }
}

/**
 * Merchant fields this subgraph contributes. Which merchants a caller may reach is decided where it enters
 * the graph (the merchant subgraph); a merchant's NMIDs all carry its own bank. App users see only their own
 * merchant's outlets within their outlet scope (lib/domain/access/user-scope.ts).
 */
@Resolver(() => MerchantRef)
export class MerchantOutletsResolver {
  @Authorized('service', 'internal', 'operator', 'bank', 'banks', 'partner', 'user')
  @FieldResolver(() => [OutletType], {
    description:
      'Live outlets, the default outlet first. A partner principal needs the merchant in its merchantIds; an app user sees its outlets.',
  })
  async outlets(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<OutletType[]> {
    assertPartnerMayRead(ctx.principal, merchant.id);
    const scope = assertUserMay(ctx.principal, 'read', { merchantId: merchant.id });
    return withinScope(scope, await ctx.services.outlet.ofMerchant(merchant.id), (o) => o.id);
  }

  @Authorized('service', 'internal', 'operator', 'bank', 'partner', 'user')
  @FieldResolver(() => OutletType, {
    nullable: true,
    description:
      'The live default outlet, else the oldest live outlet. A partner principal needs the merchant in its merchantIds; for an app user bound to outlets: the default one if it is theirs, else their first.',
  })
  async defaultOutlet(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<OutletType | null> {
    assertPartnerMayRead(ctx.principal, merchant.id);
    const scope = assertUserMay(ctx.principal, 'read', { merchantId: merchant.id });
    const outlet = await ctx.services.outlet.defaultOfMerchant(merchant.id);
    if (!scope || scope.outletIds === null || (outlet && outletInScope(scope, outlet.id))) return outlet;
    return withinScope(scope, await ctx.services.outlet.ofMerchant(merchant.id), (o) => o.id)[0] ?? null;
  }

  @Authorized('service', 'internal', 'operator', 'bank', 'banks')
  @FieldResolver(() => String, { nullable: true, description: "The default outlet's NMID, else the oldest live outlet's that has one." })
  nmid(@Root() merchant: MerchantRef, @Ctx() ctx: OutletContext): Promise<string | null> {
    return ctx.services.outlet.nmidOfMerchant(merchant.id);
  }
}
