import type { EntityManager } from '@mikro-orm/postgresql';
import type { BankPrincipal } from '@lib/domain/access/bank-scope';
import { qrisCriteriaOf } from '@lib/domain/qris/qris-payload';
import type { MerchantMdr } from '../mdr/mdr';
import type { PaymentTargetInput } from '../payment-event/payment-event.type';
import { PaymentTargetRepository, type PaymentTargetRow } from './payment-target.repository';

/** The jobs the owners enqueue with every change of what a payment event resolves to. */
export const PAYMENT_TARGET_MERCHANTS_TASK = 'payment_target_merchants';
export const PAYMENT_TARGET_OUTLETS_TASK = 'payment_target_outlets';
export interface PaymentTargetMerchantsPayload {
  profiles: unknown[];
}
export interface PaymentTargetOutletsPayload {
  targets: unknown[];
}

/** What an event names to be resolved, as the bank it acts for. */
export interface TargetRequest {
  bank: BankPrincipal;
  nmid: string;
  mid?: string | null;
  tid?: string | null;
}

/** An event's target as the copy resolves it, with what its merchant's MDR is chosen from (criteria and policy). */
export interface ResolvedTarget {
  target: PaymentTargetInput;
  mdr: MerchantMdr;
}

/**
 * A bank's payment event resolved in this subgraph (docs/decisions/0028-payment-event-and-settlement-intake.md): the outlet and
 * merchant subgraphs own NMIDs, terminals and merchants and send every change as a job; this copy lets intake record
 * an event without asking them first. It trails a change by the jobs' latency (milliseconds), as the outlet
 * subgraph's bank view does (0211).
 */
export class PaymentTargetService {
  private readonly repo: PaymentTargetRepository;

  constructor(em: EntityManager) {
    this.repo = new PaymentTargetRepository(em);
  }

  /**
   * The target of each request, as its bank would resolve it through the owners (the adapter's payment-target.ts),
   * or undefined where the copy cannot say: an NMID it does not hold or not live, another bank's, a merchant not
   * visible to the bank (the merchant subgraph's rule: the bank's own, once activated for it, the tier-1 PSP
   * before), a MID that is not the outlet's, a TID that is none of its terminals. The caller then asks the owners,
   * so the copy never decides a miss: it answers only what the owners would answer the same way.
   */
  async fromCopy(requests: readonly TargetRequest[]): Promise<(ResolvedTarget | undefined)[]> {
    const nmids = [...new Set(requests.map((r) => r.nmid))];
    const rows = new Map((await this.repo.resolve(nmids)).map((row) => [row.nmid, row]));
    return requests.map((request) => targetOf(rows.get(request.nmid), request));
  }

  /** Applies one `payment_target_merchants` job; returns the rows that changed. */
  applyMerchants(payload: PaymentTargetMerchantsPayload): Promise<number> {
    return this.repo.applyMerchants(payload.profiles);
  }

  /** Applies one `payment_target_outlets` job; returns the merchants whose set changed. */
  applyOutletSets(payload: PaymentTargetOutletsPayload): Promise<number> {
    return this.repo.applyOutletSets(payload.targets);
  }
}

function targetOf(row: PaymentTargetRow | undefined, { bank, mid, tid }: TargetRequest): ResolvedTarget | undefined {
  if (!row || row.nmid_bank_code !== bank.bankCode) return undefined;
  if (row.bank_id !== bank.bankId || row.bank_code !== bank.bankCode || (!row.psp_visible_at && bank.tier !== 1)) return undefined;
  if (mid && row.mid && mid !== row.mid) return undefined;
  const terminalId = tid ? row.terminals[tid] : null;
  if (terminalId === undefined) return undefined;
  const target = {
    merchantId: row.merchant_id,
    merchantStatus: row.status,
    categoryCode: row.category_code,
    outletId: row.outlet_id,
    multiOutlet: row.live_outlets > 1,
    terminalId,
    nmidStatus: row.nmid_status,
  };
  return { target, mdr: { criteria: qrisCriteriaOf(row.business_scale_code), policy: row.mdr_policy } };
}
