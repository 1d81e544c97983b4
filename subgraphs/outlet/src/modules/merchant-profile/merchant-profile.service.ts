import type { EntityManager } from '@mikro-orm/postgresql';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import type { MerchantRef } from '@subgraphs/outlet/src/references/merchant.ref';
import { NMID_PATTERN, type OutletService } from '../outlet/outlet.service';
import type { OutletType } from '../outlet/outlet.type';
import type { SettlementAccountService } from '../settlement-account/settlement-account.service';
import type { TerminalService } from '../terminal/terminal.service';
import { type BankViewRow, type MerchantProfileRow, MerchantProfileRepository, type ReadAhead } from './merchant-profile.repository';

/** The job the merchant subgraph enqueues with every change of what a bank sees of merchants. */
export const MERCHANT_PROFILES_TASK = 'merchant_profiles';
export interface MerchantProfilesPayload {
  profiles: unknown[];
}

/**
 * What a bank sees of a merchant, from this subgraph's read model (docs/decisions/0211-bank-view-read-model.md):
 * the merchant subgraph owns merchants and sends every change as a job; the bank paths read the copy here, so that
 * one subgraph fetch answers them. The copy trails a change by the job's latency (milliseconds), within the 30 s a
 * bank lookup may be cached (psp-api.md §8).
 */
export class MerchantProfileService {
  private readonly repo: MerchantProfileRepository;

  constructor(
    em: EntityManager,
    private readonly outlets: OutletService,
    private readonly terminals: TerminalService,
    private readonly settlementAccounts: SettlementAccountService,
  ) {
    this.repo = new MerchantProfileRepository(em);
  }

  /**
   * The live outlet of each NMID as its bank sees it, with its merchant from the copy; null unless both are visible:
   * the merchant subgraph's rule, only the bank's own merchants, once activated for it (the tier-1 PSP before). Null
   * also when the merchant is not in the copy yet: the caller then asks the merchant subgraph. One statement reads
   * the outlets, the profiles and what `ahead` names; the rest of the request finds those in the loaders.
   */
  async outletsForBanks(requests: { nmid: string; bank: BankPrincipal }[], ahead: ReadAhead): Promise<(OutletType | null)[]> {
    const nmids = [...new Set(requests.map((r) => r.nmid).filter((nmid) => NMID_PATTERN.test(nmid)))];
    const views = nmids.length > 0 ? await this.repo.bankViewsByNmids(nmids, ahead) : [];
    const profiles = new Map<string, MerchantProfileRow>();
    for (const view of views) {
      profiles.set(view.outlet.nmid!, view.profile);
      this.remember(view);
    }
    return Promise.all(
      requests.map(async ({ nmid, bank }) => {
        const profile = profiles.get(nmid);
        const outlet = profile ? await this.outlets.findByNmid(nmid, bank) : null;
        if (!outlet || !profile) return null;
        if (profile.bank_id !== bank.bankId || (!profile.psp_visible_at && bank.tier !== 1)) return null;
        return { ...outlet, merchant: toMerchantRef(profile) };
      }),
    );
  }

  private remember({
    outlet,
    outletTerminals,
    merchantOutlets,
    merchantNmid,
    primaryTerminal,
    merchantSettlementAccounts,
  }: BankViewRow): void {
    this.outlets.rememberByNmid(outlet);
    if (outletTerminals) this.terminals.rememberOfOutlet(outlet.id, outletTerminals);
    if (merchantOutlets) this.outlets.rememberOfMerchant(outlet.merchantId, merchantOutlets);
    if (merchantNmid !== undefined) this.outlets.rememberNmidOfMerchant(outlet.merchantId, merchantNmid);
    if (primaryTerminal !== undefined) this.terminals.rememberPrimary(outlet.merchantId, primaryTerminal);
    if (merchantSettlementAccounts && merchantOutlets)
      this.settlementAccounts.rememberEffective(
        merchantSettlementAccounts,
        merchantOutlets.map((o) => o.id),
      );
  }

  /** Applies one `merchant_profiles` job; returns the rows that changed. */
  apply(payload: MerchantProfilesPayload): Promise<number> {
    return this.repo.upsert(payload.profiles);
  }
}

function toMerchantRef(row: MerchantProfileRow): MerchantRef {
  return {
    id: row.merchant_id,
    name: row.name,
    legalName: row.legal_name,
    status: row.status,
    categoryCode: row.category_code,
    categoryName: row.category_name,
    phone: row.phone,
    email: row.email,
    npwp: row.npwp,
    address: {
      line: row.address_line,
      city: row.address_city,
      province: row.address_province,
      postalCode: row.address_postal_code,
      country: row.address_country,
    },
    kycStatus: row.kyc_status,
    kycVerifiedAt: row.kyc_verified_at,
    bankCode: row.bank_code,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
