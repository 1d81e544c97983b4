import { loadOperation } from '@lib/rest/operation';
import type { RouteRuntime } from '@lib/rest/route';

/**
 * Events and settlements name an NMID (and maybe MID/TID); the outlet subgraph resolves it for the calling
 * bank (another bank's NMID is unknown) and the merchant subgraph adds the merchant. A separate operation
 * from the recording one: its answer is part of what gets recorded.
 */
const resolveNmid = loadOperation(__dirname, 'resolve-nmid.graphql');
/** The same for a micro-batch of several banks' events: one item per event, each resolved as its own bank. */
const resolveNmids = loadOperation(__dirname, 'resolve-nmids.graphql');

interface ResolvedOutlet {
  id: string;
  mid: string | null;
  nmidStatus: string;
  terminals: { id: string; tid: string | null }[];
  merchant: { id: string; status: string; categoryCode: string | null; bankCode: string | null; outlets: { id: string }[] } | null;
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

export interface NmidReference {
  bankCode: string;
  nmid: string;
  mid?: string;
  tid?: string;
}

/** The target of one NMID, resolved as the calling bank. */
export async function resolvePaymentTarget(runtime: RouteRuntime, reference: NmidReference): Promise<PaymentTarget | null> {
  const { outletByNmid } = await runtime.run<{ outletByNmid: ResolvedOutlet | null }>(resolveNmid, { nmid: reference.nmid });
  return targetOf(outletByNmid, reference);
}

/** Targets of several NMIDs in one call, each resolved as the bank it names; `runtime.run` acts for all of those banks. */
export async function resolvePaymentTargets(run: RouteRuntime['run'], references: NmidReference[]): Promise<(PaymentTarget | null)[]> {
  const requests = references.map(({ bankCode, nmid }) => ({ bankCode, nmid }));
  const { outletsByNmid } = await run<{ outletsByNmid: (ResolvedOutlet | null)[] }>(resolveNmids, { requests });
  return references.map((reference, i) => targetOf(outletsByNmid[i] ?? null, reference));
}

/**
 * Null when the NMID is unknown to the bank, its merchant is not visible to the bank (a batch sees the merchants
 * of all its banks, so the merchant's bank must be the item's), or a MID sent with it does not belong to that
 * outlet. A TID that matches none of the outlet's terminals leaves the terminal unresolved (recorded as sent in
 * the payload).
 */
function targetOf(outlet: ResolvedOutlet | null, { bankCode, mid, tid }: NmidReference): PaymentTarget | null {
  if (!outlet?.merchant || outlet.merchant.bankCode !== bankCode) return null;
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
