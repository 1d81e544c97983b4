import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, Directive, Info, Query, Resolver } from 'type-graphql';
import { bankOfItem } from '@lib/domain/access/bank-scope';
import { selectedPaths } from '@lib/federation/selection';
import type { OutletContext } from '@subgraphs/outlet/src/context';
import { OutletInputError } from '../outlet/outlet.errors';
import { MAX_NMIDS_PER_CALL, NmidOfBankInput, OutletType } from '../outlet/outlet.type';
import type { ReadAhead } from './merchant-profile.repository';

/** What a bank sees of the merchant, provided by this subgraph from its read model on these fields alone. */
const BANK_VIEW =
  'merchant { name legalName status categoryCode categoryName phone email npwp address { line city province postalCode country } kycStatus kycVerifiedAt bankCode createdAt updatedAt }';

/**
 * The bank paths' entry (docs/decisions/0211-bank-view-read-model.md): an NMID's outlet with what its bank sees of
 * the merchant, both from this subgraph, so that a lookup or an event's resolution is one subgraph fetch. The
 * merchant fields come from the read model `outlet.merchant_profiles`; fields outside it (owners) still come from
 * the merchant subgraph.
 */
@Resolver()
export class PspOutletResolver {
  @Authorized('bank')
  @Directive(`@provides(fields: "${BANK_VIEW}")`)
  @Query(() => OutletType, {
    nullable: true,
    description:
      'The live outlet with this NMID and what the calling bank sees of its merchant, from this subgraph’s copy (it trails a change by milliseconds). Null when the NMID is unknown to the bank, or its merchant is not visible to the bank or not in the copy yet: ask outletByNmid then.',
  })
  async pspOutletByNmid(
    @Arg('nmid', { description: 'National merchant ID.' }) nmid: string,
    @Ctx() ctx: OutletContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<OutletType | null> {
    if (ctx.principal.kind !== 'bank') return null;
    const [outlet] = await ctx.services.merchantProfile.outletsForBanks([{ nmid, bank: ctx.principal }], readAheadOf(info));
    return outlet;
  }

  @Authorized('bank', 'banks')
  @Directive(`@provides(fields: "${BANK_VIEW}")`)
  @Query(() => [OutletType], {
    nullable: 'items',
    description: 'pspOutletByNmid for each item, as the bank the item names (one of the caller’s banks). Aligned with `requests`.',
  })
  pspOutletsByNmid(
    @Arg('requests', () => [NmidOfBankInput], { description: 'NMIDs with the bank asking for each (a bank sees only its own).' })
    requests: NmidOfBankInput[],
    @Ctx() ctx: OutletContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<(OutletType | null)[]> {
    if (requests.length > MAX_NMIDS_PER_CALL) throw new OutletInputError(`at most ${MAX_NMIDS_PER_CALL} requests`);
    const items = requests.map((r) => ({ nmid: r.nmid, bank: bankOfItem(ctx.principal, r.bankCode) }));
    return ctx.services.merchantProfile.outletsForBanks(items, readAheadOf(info));
  }
}

/** What the rest of the operation asks of the outlets and merchants found, read in the same statement. */
function readAheadOf(info: GraphQLResolveInfo): ReadAhead {
  const paths = selectedPaths(info, 3);
  return {
    outletTerminals: paths.has('terminals'),
    merchantOutlets: paths.has('merchant.outlets'),
    merchantNmid: paths.has('merchant.nmid'),
    primaryTerminal: paths.has('merchant.terminal'),
    merchantSettlementAccounts: paths.has('merchant.outlets.effectiveSettlementAccount'),
  };
}
