import { loadOperation } from '../../../../lib/rest/operation';
import type { RouteRuntime } from '../../../../lib/rest/route';

/**
 * Events and settlements name an NMID (and maybe MID/TID); the outlet subgraph resolves it for the calling
 * bank (another bank's NMID is unknown) and the merchant subgraph adds the merchant. A separate operation
 * from the recording one: its answer is part of what gets recorded.
 */
export const resolveNmid = loadOperation(__dirname, 'resolve-nmid.graphql');

export interface ResolvedNmid {
  outletByNmid: {
    id: string;
    mid: string | null;
    nmidStatus: string;
    terminals: { id: string; tid: string | null }[];
    merchant: { id: string; status: string; categoryCode: string | null; outlets: { id: string }[] } | null;
  } | null;
}

export interface PaymentTarget {
  merchantId: string;
  merchantStatus: string;
  categoryCode: string | null;
  outletId: string;
  multiOutlet: boolean;
  terminalId: string | null;
  nmidStatus: string;
}

/**
 * The target of an event, or null when the NMID is unknown to this bank, its merchant is not visible to
 * the bank, or a MID sent with it does not belong to that outlet. A TID that matches none of the outlet's
 * terminals leaves the terminal unresolved (recorded as sent in the payload).
 */
export async function resolvePaymentTarget(runtime: RouteRuntime, nmid: string, mid?: string, tid?: string): Promise<PaymentTarget | null> {
  const { outletByNmid: outlet } = await runtime.run<ResolvedNmid>(resolveNmid, { nmid });
  if (!outlet?.merchant) return null;
  if (mid && outlet.mid && mid !== outlet.mid) return null;
  return {
    merchantId: outlet.merchant.id,
    merchantStatus: outlet.merchant.status,
    categoryCode: outlet.merchant.categoryCode,
    outletId: outlet.id,
    multiOutlet: outlet.merchant.outlets.length > 1,
    terminalId: (tid && outlet.terminals.find((t) => t.tid === tid)?.id) || null,
    nmidStatus: outlet.nmidStatus,
  };
}
